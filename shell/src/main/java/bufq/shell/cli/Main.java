package bufq.shell.cli;

import bufq.shell.repl.JLineRepl;
import bufq.shell.repl.TerminalWidth;
import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;

/** Entry point of the {@code bufq} jar: wires the real engine and REPL; all behaviour lives in {@link Bufq#run}. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        // A lambda, not a method reference: batch runs never load the REPL's classes.
        Env env = Env.system();
        // A batch run on a terminal fits its tables to it as the shell does; COLUMNS, when set, wins.
        if (env.interactive() && !env.vars().containsKey("COLUMNS")) env = env.withColumns(TerminalWidth.stdout());
        Bufq bufq = new Bufq(env, DefaultEngine::new, in -> JLineRepl.system(in));
        int rc = bufq.run(args, System.in, System.out, System.err);
        // The JVM archives the classes this run loaded: those of a summary and a query, and for
        // interactive sessions those of one, whatever the run itself did.
        String archiving = System.getProperty(ArchiveNotice.PROPERTY);
        if (archiving != null && !archiving.isEmpty()) Rehearsal.run(Boolean.getBoolean(Rehearsal.PROPERTY));
        ArchiveNotice.print(archiving, System.err);
        System.exit(rc);
    }
}
