package io.cubed.storage.fs.s3;

import io.cubed.error.StorageException;
import java.lang.reflect.Method;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where an S3 store takes its credentials from, asked before every request (a source that fetches credentials, such as
 * an instance profile, keeps them until they near their expiry). Built from the s3a settings a user already has
 * ({@code fs.s3a.access.key}, {@code fs.s3a.aws.credentials.provider}, …), so that {@code s3a://} URIs take the same
 * credentials through Cubed's client as through Hadoop's S3A:
 *
 * <ul>
 *   <li>keys in the options ({@code fs.s3a.access.key}, {@code fs.s3a.secret.key}, {@code fs.s3a.session.token}, per
 *       bucket as {@code fs.s3a.bucket.BUCKET.access.key}…) and the environment ({@code AWS_ACCESS_KEY_ID}, {@code
 *       AWS_SECRET_ACCESS_KEY}, {@code AWS_SESSION_TOKEN}) are read here, without loading Hadoop or the AWS SDK;
 *   <li>anonymous access ({@code org.apache.hadoop.fs.s3a.AnonymousAWSCredentialsProvider}) signs nothing;
 *   <li>the instance profile's and a container's credentials ({@code IAMInstanceCredentialsProvider}, {@code
 *       InstanceProfileCredentialsProvider}, {@code ContainerCredentialsProvider}) come from the metadata endpoints;
 *   <li>every other provider (web-identity credentials, assumed roles, a user's own class, secrets in a Hadoop
 *       credential store) is S3A's own provider chain, built by S3A from the same options
 *       and asked through reflection: hadoop-aws and its AWS SDK must then be on the class path, as for S3A itself.
 * </ul>
 *
 * With no provider named, the order is S3A's default, read here too: the keys of the options, the environment, then
 * the container's or the EC2 instance profile's credentials ({@link InstanceCredentials}: what EMR and Databricks
 * nodes have).
 */
interface CredentialSource {
    /** The credentials for the next request; fails naming where it looked when there are none. */
    Credentials get();

    /** The option naming the credential providers (a comma-separated list of class names). */
    String PROVIDERS = "aws.credentials.provider";

    String SIMPLE = "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider";
    String TEMPORARY = "org.apache.hadoop.fs.s3a.TemporaryAWSCredentialsProvider";
    String ANONYMOUS = "org.apache.hadoop.fs.s3a.AnonymousAWSCredentialsProvider";
    String ENVIRONMENT = "com.amazonaws.auth.EnvironmentVariableCredentialsProvider";
    /** The instance profile's or the container's credentials, under S3A's and the AWS SDK's names. */
    Set<String> INSTANCE = Set.of(
            "org.apache.hadoop.fs.s3a.auth.IAMInstanceCredentialsProvider",
            "com.amazonaws.auth.InstanceProfileCredentialsProvider",
            "com.amazonaws.auth.EC2ContainerCredentialsProviderWrapper",
            "com.amazonaws.auth.ContainerCredentialsProvider");
    /** Providers read here without Hadoop. */
    Set<String> NATIVE = java.util.stream.Stream.concat(
                    Set.of(SIMPLE, TEMPORARY, ANONYMOUS, ENVIRONMENT).stream(), INSTANCE.stream())
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    /**
     * The source the options of {@code settings} describe for bucket {@code bucket}; {@code env} is the process
     * environment (a parameter for tests).
     */
    static CredentialSource of(S3Settings settings, Map<String, String> env) {
        String named = settings.get(PROVIDERS);
        List<String> providers = new ArrayList<>();
        if (named != null) {
            for (String p : named.split(",")) {
                if (!p.trim().isEmpty()) {
                    providers.add(p.trim());
                }
            }
        }
        boolean secretsInHadoopStore = settings.options().get("hadoop.security.credential.provider.path") != null;
        if (!providers.isEmpty() && !secretsInHadoopStore && NATIVE.containsAll(providers)) {
            List<CredentialSource> chain = new ArrayList<>();
            for (String p : providers) {
                chain.add(
                        switch (p) {
                            case SIMPLE -> keys(settings, false);
                            case TEMPORARY -> keys(settings, true);
                            case ENVIRONMENT -> environment(env);
                            case ANONYMOUS -> () -> Credentials.ANONYMOUS;
                            default -> new InstanceCredentials(env);
                        });
            }
            return chain(settings, chain, "the providers " + providers + " of fs.s3a." + PROVIDERS);
        }
        if (!providers.isEmpty() || secretsInHadoopStore) {
            return new HadoopChain(settings);
        }
        List<CredentialSource> chain = List.of(keys(settings, true), environment(env), new InstanceCredentials(env));
        return chain(
                settings,
                chain,
                "fs.s3a.access.key and fs.s3a.secret.key (or fs.s3a.bucket." + settings.bucket()
                        + ".access.key and .secret.key), the environment variables AWS_ACCESS_KEY_ID and"
                        + " AWS_SECRET_ACCESS_KEY, and the container's or the EC2 instance profile's credentials; for"
                        + " other providers, name them in fs.s3a." + PROVIDERS + " (with hadoop-aws on the class"
                        + " path); for a public bucket, set fs.s3a." + PROVIDERS + "=" + ANONYMOUS);
    }

    /** The first source of {@code chain} that has credentials. */
    private static CredentialSource chain(S3Settings settings, List<CredentialSource> chain, String looked) {
        return () -> {
            List<String> failures = new ArrayList<>();
            for (CredentialSource s : chain) {
                try {
                    Credentials c = s.get();
                    if (c != null) {
                        return c;
                    }
                } catch (StorageException e) {
                    failures.add(e.getMessage());
                }
            }
            throw new StorageException("no AWS credentials for s3a://" + settings.bucket() + ": looked in " + looked
                    + (failures.isEmpty() ? "" : " (" + String.join("; ", failures) + ")"));
        };
    }

    /** The keys of the options; with {@code session}, and the session token when one is set. Null when unset. */
    private static CredentialSource keys(S3Settings settings, boolean session) {
        return () -> {
            String access = settings.get("access.key");
            String secret = settings.get("secret.key");
            if (access == null || secret == null || access.isEmpty() || secret.isEmpty()) {
                return null;
            }
            String token = session ? settings.get("session.token") : null;
            return new Credentials(access, secret, token == null || token.isEmpty() ? null : token);
        };
    }

    /** The keys of the environment variables the AWS SDKs read. Null when unset. */
    private static CredentialSource environment(Map<String, String> env) {
        return () -> {
            String access = firstOf(env, "AWS_ACCESS_KEY_ID", "AWS_ACCESS_KEY");
            String secret = firstOf(env, "AWS_SECRET_ACCESS_KEY", "AWS_SECRET_KEY");
            if (access == null || secret == null) {
                return null;
            }
            return new Credentials(access, secret, firstOf(env, "AWS_SESSION_TOKEN"));
        };
    }

    private static String firstOf(Map<String, String> env, String... names) {
        for (String n : names) {
            String v = env.get(n);
            if (v != null && !v.isEmpty()) {
                return v;
            }
        }
        return null;
    }

    /**
     * S3A's own provider chain ({@code S3AUtils.createAWSCredentialProviderSet}), built once from the options as a
     * Hadoop configuration and asked for every request through reflection, so that Cubed needs neither hadoop-aws nor
     * the AWS SDK to compile, and loads them only when a user's settings name a provider only S3A knows.
     */
    final class HadoopChain implements CredentialSource {
        private final S3Settings settings;
        private volatile Object providers;
        private volatile Method getCredentials;

        HadoopChain(S3Settings settings) {
            this.settings = settings;
        }

        /** True when hadoop-aws is on the class path. */
        static boolean available() {
            try {
                Class.forName("org.apache.hadoop.fs.s3a.S3AUtils", false, HadoopChain.class.getClassLoader());
                return true;
            } catch (ClassNotFoundException | LinkageError e) {
                return false;
            }
        }

        @Override
        public Credentials get() {
            try {
                Object list = providers();
                Object c = getCredentials.invoke(list);
                if (c == null) {
                    return null;
                }
                String access =
                        (String) c.getClass().getMethod("getAWSAccessKeyId").invoke(c);
                String secret =
                        (String) c.getClass().getMethod("getAWSSecretKey").invoke(c);
                if (access == null || secret == null) {
                    return Credentials.ANONYMOUS;
                }
                String token = null;
                for (Class<?> i : c.getClass().getInterfaces()) {
                    if (i.getName().equals("com.amazonaws.auth.AWSSessionCredentials")) {
                        token = (String) i.getMethod("getSessionToken").invoke(c);
                    }
                }
                return new Credentials(access, secret, token);
            } catch (java.lang.reflect.InvocationTargetException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                throw new StorageException(
                        "S3A's credential providers for s3a://" + settings.bucket() + " gave no credentials: " + cause,
                        cause);
            } catch (ReflectiveOperationException e) {
                throw new StorageException(
                        "cannot ask S3A's credential providers for s3a://" + settings.bucket() + ": " + e, e);
            }
        }

        private Object providers() throws ReflectiveOperationException {
            Object p = providers;
            if (p == null) {
                synchronized (this) {
                    p = providers;
                    if (p == null) {
                        if (!available()) {
                            throw new StorageException("the credential providers of the settings for s3a://"
                                    + settings.bucket() + " (fs.s3a." + PROVIDERS + "=" + settings.get(PROVIDERS)
                                    + ", or secrets in a Hadoop credential store) need hadoop-aws 3.3.4 and its AWS SDK"
                                    + " bundle on the class path (bin/cubed --jars, spark-submit --packages"
                                    + " org.apache.hadoop:hadoop-aws:3.3.4)");
                        }
                        org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration();
                        settings.options().asMap().forEach(conf::set);
                        Class<?> utils = Class.forName("org.apache.hadoop.fs.s3a.S3AUtils");
                        Method create = utils.getMethod(
                                "createAWSCredentialProviderSet",
                                URI.class,
                                org.apache.hadoop.conf.Configuration.class);
                        p = create.invoke(null, URI.create("s3a://" + settings.bucket()), conf);
                        getCredentials = p.getClass().getMethod("getCredentials");
                        providers = p;
                    }
                }
            }
            return p;
        }
    }
}
