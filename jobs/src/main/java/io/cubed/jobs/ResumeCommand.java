package io.cubed.jobs;

import io.cubed.error.InvalidArgumentException;
import io.cubed.storage.StoreOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code cubed resume FILE}: runs a job saved with {@code --save-plan FILE} again, in this process, with the saved
 * arguments and resume id: operations already complete and chunks already written are skipped. The plan the saved
 * arguments give now must be the saved plan, or nothing runs.
 */
@Command(name = "resume", description = "Resume a job saved with --save-plan FILE, skipping what is already written.")
final class ResumeCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE", description = "The plan file written by --save-plan.")
    Path file;

    @CommandLine.Mixin
    CubedCli.StoreArgs store = new CubedCli.StoreArgs();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec cli;

    @Override
    public Integer call() {
        PlanFile saved = PlanFile.read(file);
        if (!saved.job().equals("rechunk")
                || saved.arguments().isEmpty()
                || !saved.arguments().get(0).equals("rechunk")) {
            throw new InvalidArgumentException(
                    "cannot resume " + file + ": job '" + saved.job() + "' is not one that saves its plan (rechunk)");
        }
        cli.commandLine().getOut().println("resuming " + file + ": cubed " + String.join(" ", saved.arguments()));
        RechunkCommand job = new RechunkCommand();
        job.expected = saved;
        CommandLine cl = new CommandLine(job);
        cl.setOut(cli.commandLine().getOut());
        cl.setErr(cli.commandLine().getErr());
        cl.setExecutionExceptionHandler(CubedCli::handle);
        cl.setParameterExceptionHandler(CubedCli::usageError);
        List<String> args =
                withStoreOptions(saved.arguments().subList(1, saved.arguments().size()));
        return cl.execute(args.toArray(String[]::new));
    }

    /**
     * The saved arguments with this command's {@code --conf} options: a value given here replaces the saved one, and a
     * credential the plan does not hold (saved as {@link StoreOptions#REDACTED}) is left out when not given here, so
     * that the Hadoop configuration, its credential providers or the environment supply it.
     */
    private List<String> withStoreOptions(List<String> saved) {
        List<String> args = new java.util.ArrayList<>();
        java.util.Set<String> given = new java.util.HashSet<>(store.conf.keySet());
        for (int i = 0; i < saved.size(); i++) {
            String a = saved.get(i);
            if (a.equals("--conf") && i + 1 < saved.size()) {
                String kv = saved.get(++i);
                int eq = kv.indexOf('=');
                String key = eq < 0 ? kv : kv.substring(0, eq);
                String value = eq < 0 ? "" : kv.substring(eq + 1);
                if (store.conf.containsKey(key)) {
                    continue;
                }
                if (value.equals(StoreOptions.REDACTED)) {
                    cli.commandLine()
                            .getOut()
                            .println("note: " + key + " was not saved in " + file + "; give it with --conf " + key
                                    + "=VALUE, or from the Hadoop configuration, a credential provider or the"
                                    + " environment");
                    continue;
                }
                args.add(a);
                args.add(kv);
            } else {
                args.add(a);
            }
        }
        for (String key : given) {
            args.add("--conf");
            args.add(key + "=" + store.conf.get(key));
        }
        return args;
    }
}
