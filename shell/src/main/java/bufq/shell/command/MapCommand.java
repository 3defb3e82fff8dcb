package bufq.shell.command;

import bufq.format.chart.BarChart;
import bufq.analysis.map.AllocationMap;
import bufq.model.HloModule;
import bufq.shell.api.Command;
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
    @Override public String synopsis() { return "map [allocation] N [width W] [--svg FILE | --html FILE] [--force]"; }
    @Override public String brief() { return "Offset against time for the values of one allocation."; }

    @Override public String description() {
        return "Draws allocation N: time across, offset down, each value a block labelled with its name; values\n"
                + "without a live range span the whole width and are marked. --svg/--html write a picture instead.";
    }

    @Override public List<String> examples() { return List.of("map 3", "map allocation 3 width 120", "map 3 --svg alloc3.svg"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.words(args, this::run);
    }

    private Status run(CommandContext ctx, List<String> args) throws CommandException, Engine.Failure, IOException {
        CommandArgs a = new CommandArgs(args, synopsis());
        OptionalInt width = a.integer("width", 20, BarChart.MAX_WIDTH);
        String svg = a.value("--svg");
        String html = a.value("--html");
        boolean force = a.flag("--force");
        String n = a.positional();
        if ("allocation".equals(n)) n = a.positional();
        a.done();
        if (n == null) throw new CommandException("usage: " + synopsis());
        int index;
        try {
            index = Integer.parseInt(n);
        } catch (NumberFormatException e) {
            throw new CommandException("expected an allocation number, found '" + n + "'");
        }
        if (svg != null && html != null) throw new CommandException("give --svg or --html, not both");
        HloModule m = ctx.modules().requireFor("map", ctx.out()::info);
        try {
            if (svg != null) Pictures.write(ctx, svg, force, AllocationMap.svg(m, index));
            else if (html != null) Pictures.write(ctx, html, force, AllocationMap.html(m, index));
            else ctx.out().print(AllocationMap.chart(m, index, width.orElse(ctx.out().terminalWidth())));
        } catch (IllegalArgumentException e) {
            throw new CommandException(e.getMessage());
        }
        return Status.OK;
    }
}
