package bufq.shell.command;

import bufq.analysis.timeline.Timeline;
import bufq.format.chart.BarChart;
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

final class TimelineCommand implements Command {
    @Override public String name() { return "timeline"; }
    @Override public String synopsis() { return "timeline [by steps|events] [color N | space NAME] [width W] [--svg FILE | --html FILE] [--force]"; }
    @Override public String brief() { return "A chart of occupied bytes over the schedule (terminal, SVG or HTML)."; }

    @Override public String description() {
        return "Charts occupied bytes per step (each held byte once) with block characters, W columns wide\n"
                + "(default: the terminal), the peak (the first step with the most) marked; the dump's own label,\n"
                + "claimed_peak, need not be that step. With --svg or --html writes a standalone picture stacked by\n"
                + "colour instead (the HTML shows step, instruction and bytes on hover); an existing file is only\n"
                + "replaced with --force.\n"
                + "'by events' charts a proto dump's heap-simulator trace instead (heap bytes after each ALLOC, FREE\n"
                + "or SHARE_WITH, XProf's x-axis) and sets the trace's own peak beside bufq's per-step peak, comparing\n"
                + "them at the step where the trace peaks and at bufq's peak step.";
    }

    @Override public List<String> examples() {
        return List.of("timeline", "timeline color 1 width 120", "timeline --html timeline.html", "timeline by events");
    }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.words(args, this::run);
    }

    private Status run(CommandContext ctx, List<String> args) throws CommandException, Engine.Failure, IOException {
        CommandArgs a = new CommandArgs(args, synopsis());
        HloModule m = ctx.modules().requireFor("timeline", ctx.out()::info);
        String by = a.value("by");
        if (by != null && !by.equals("steps") && !by.equals("events"))
            throw new CommandException("timeline by takes steps or events, not '" + by + "'");
        OptionalInt color = a.color(m);
        OptionalInt width = a.integer("width", 20, BarChart.MAX_WIDTH);
        String svg = a.value("--svg");
        String html = a.value("--html");
        boolean force = a.flag("--force");
        a.done();
        if (svg != null && html != null) throw new CommandException("give --svg or --html, not both");
        if ("events".equals(by)) {
            if (svg != null || html != null || color.isPresent()) throw new CommandException("timeline by events takes only width W");
            ctx.out().print(Timeline.events(m, width.orElse(ctx.out().terminalWidth())));
            return Status.OK;
        }
        if (svg != null) Pictures.write(ctx, svg, force, Timeline.svg(m, color));
        else if (html != null) Pictures.write(ctx, html, force, Timeline.html(m, color));
        else ctx.out().print(Timeline.chart(m, color, width.orElse(ctx.out().terminalWidth())));
        return Status.OK;
    }
}
