package io.cubed.storage.fs.s3;

import com.amazonaws.auth.AWSCredentials;
import com.amazonaws.auth.AWSCredentialsProvider;
import com.amazonaws.auth.BasicSessionCredentials;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;

/**
 * A credential provider only S3A knows how to build (as a user's own provider class would be): it gives the keys of
 * the options {@code test.fixed.access}, {@code test.fixed.secret} and {@code test.fixed.token}, so that a test can
 * tell that Cubed's S3 client asked S3A's provider chain.
 */
public final class FixedCredentialsProvider implements AWSCredentialsProvider {
    private final Configuration conf;

    /** The constructor S3A calls: the bucket's URI and the configuration. */
    public FixedCredentialsProvider(URI bucket, Configuration conf) {
        this.conf = conf;
    }

    @Override
    public AWSCredentials getCredentials() {
        return new BasicSessionCredentials(
                conf.get("test.fixed.access"), conf.get("test.fixed.secret"), conf.get("test.fixed.token"));
    }

    @Override
    public void refresh() {}
}
