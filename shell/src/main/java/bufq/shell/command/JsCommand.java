package bufq.shell.command;

import bufq.shell.api.ArgGrammar;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;

import java.util.List;

/** {@code js CODE}: evaluates JavaScript inline and prints its value unless it is undefined. */
final class JsCommand implements Command {
    @Override public String name() { return "js"; }
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("js").rest("CODE", "CODE");

    @Override public ArgGrammar grammar() { return GRAMMAR; }

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

    /** The code is the rest of the line as typed, quotes and all; JavaScript runs after the init script, as it always has. */
    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        String code = GRAMMAR.parse(args).text("CODE");
        return new CommandPlan.Simple(false, true, true, c -> c.session().scripts().eval(code, "js"));
    }
}
