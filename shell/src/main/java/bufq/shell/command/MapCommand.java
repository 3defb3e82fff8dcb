package bufq.shell.command;

import bufq.api.Reports;
import bufq.model.HloModule;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.ArgKind;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.session.CommandException;
import bufq.shell.session.Engine;
import bufq.shell.api.CommandPlan;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;

import java.io.IOException;
import java.util.List;
import java.util.OptionalInt;

final class MapCommand implements Command {
    @Override public String name() { return "map"; }
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("map").flag("allocation")
            .positionalCount("N", 0, Integer.MAX_VALUE)
            .count("width", 20, Reports.MAX_CHART_WIDTH).as("W")
            .oneOf(false, g -> g.value("--svg", ArgKind.FILE).value("--html", ArgKind.FILE))
            .flag("--force");

    @Override public ArgGrammar grammar() { return GRAMMAR; }
    @Override public String brief() { return "Offset against time for the values of one allocation."; }

    @Override public String description() {
        return "Draws allocation N: time across, offset down, each value a block labelled with its name; values\n"
                + "without a live range span the whole width and are marked. --svg/--html write a picture instead.";
    }

    @Override public List<String> examples() { return List.of("map 3", "map allocation 3 width 120", "map 3 --svg alloc3.svg"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.parsed(GRAMMAR, args, this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs a) throws CommandException, Engine.Failure, IOException {
        OptionalInt width = a.count("width");
        String svg = a.text("--svg");
        String html = a.text("--html");
        boolean force = a.has("--force");
        int index = a.count("N").getAsInt();
        HloModule m = ctx.modules().requireFor("map", ctx.out()::info);
        try {
            if (svg != null) Pictures.write(ctx, svg, force, Reports.mapSvg(m, index));
            else if (html != null) Pictures.write(ctx, html, force, Reports.mapHtml(m, index));
            else ctx.out().print(Reports.map(m, index, width.orElse(ctx.out().terminalWidth())));
        } catch (IllegalArgumentException e) {
            throw a.error("N", e.getMessage(), List.of());
        }
        return Status.OK;
    }
}
