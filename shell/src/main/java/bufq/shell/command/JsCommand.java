package bufq.shell.command;

import bufq.shell.session.Command;
import bufq.shell.session.CommandException;
import bufq.shell.session.Shell;
import bufq.shell.session.Status;

import java.util.List;

/** {@code js CODE}: evaluates JavaScript inline and prints its value unless it is undefined. */
final class JsCommand implements Command {
    @Override public String name() { return "js"; }
    @Override public String synopsis() { return "js CODE"; }

    @Override public String brief() { return "Evaluates JavaScript with the bufq API (see scripts/README.md)."; }

    @Override public String description() {
        return "Evaluates JavaScript in the session's sandbox and prints the value unless it is undefined. The\n"
                + "global 'bufq' holds module, query(text), field(entity, name, fn), tiling(name, fn) and\n"
                + "check(name, fn), all read-only; print(...) writes to the output (in json, {\"print\": LINE}).\n"
                + "Unfinished code (an open bracket, string or comment) continues on the next line. A script is\n"
                + "stopped after 'set timeout' seconds or by Ctrl-C. init.js (see --help) runs before the first.";
    }

    @Override public List<String> examples() {
        return List.of("js bufq.module.values.length", "js bufq.query('values order by size desc limit 3').map(r => r.label)",
                "js print(bufq.module.peak.bytes)");
    }

    @Override public boolean rawArgs() { return true; }

    /** Yes: JavaScript runs after the init script, as it always has. */
    @Override public boolean usesScripts(Shell shell, String args) { return true; }

    @Override public Status run(Shell shell, List<String> args) throws CommandException {
        if (args.isEmpty() || args.get(0).isBlank()) throw new CommandException("usage: " + synopsis());
        return shell.scripts().eval(args.get(0), "js");
    }
}
