package io.cubed.jobs;

import io.cubed.error.InvalidArgumentException;
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
        List<String> args = saved.arguments().subList(1, saved.arguments().size());
        return cl.execute(args.toArray(String[]::new));
    }
}
