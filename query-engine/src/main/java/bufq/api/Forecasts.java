package bufq.api;

import bufq.analysis.forecast.Forecast;
import bufq.analysis.forecast.MeshForecast;
import bufq.analysis.forecast.NotASeries;
import bufq.eval.Catalog;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.table.Output;
import bufq.table.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The engine's answer to "how big can it get" ({@code forecast}, {@code bufq.forecast}): one program
 * loaded at several sizes, forecast at a size never compiled and up to the largest that fits; or one
 * SPMD compile on another number of devices ({@code chips}).
 */
public final class Forecasts {
    private Forecasts() {}

    /** The loaded modules are no series: the message says why, {@link #details} (or null) the values that did not pair or fit. */
    public static final class Refusal extends Exception {
        private final transient Table details;

        Refusal(NotASeries e) {
            super(e.getMessage(), null, false, false);
            this.details = e.details();
        }

        public Table details() { return details; }
    }

    /** What a forecast prints, and why {@code fit at N} fails (null when it does not). */
    public record Answer(List<Output> outputs, String failure) {
        public Answer {
            outputs = List.copyOf(outputs);
        }
    }

    /**
     * The series among the loaded modules: the current module's program, or the one loaded more than
     * once. A client reads each of its {@link Series#modules} Used values before asking it.
     */
    public static Series series(List<HloModule> loaded, HloModule current) throws Refusal {
        try {
            return new Series(Forecast.split(loaded, current));
        } catch (NotASeries e) {
            throw new Refusal(e);
        }
    }

    /** One program at several sizes, and the other loaded programs, which a fit holds beside it. */
    public static final class Series {
        private final Forecast.Loaded loaded;

        private Series(Forecast.Loaded loaded) { this.loaded = loaded; }

        /** The series' modules, smallest size first. */
        public List<HloModule> modules() { return loaded.series(); }

        /**
         * {@code forecast [DIM] at N} or {@code forecast [DIM] fit [at N]} against the capacity {@code said}.
         *
         * @throws IllegalArgumentException when {@code fit} is asked and the reservation is not below the capacity
         */
        public Answer answer(ForecastRequest r, CapacitySaid said) throws Refusal {
            return forecast(r, said, false);
        }

        /** As {@link #answer}, with every value's law in the last table (a script's {@code bufq.forecast}). */
        public List<Output> tables(ForecastRequest r, CapacitySaid said) throws Refusal {
            return forecast(r, said, true).outputs();
        }

        private Answer forecast(ForecastRequest r, CapacitySaid said, boolean laws) throws Refusal {
            try {
                Forecast f = Forecast.of(loaded.series(), r.dimension());
                if (r.fit()) {
                    Forecast.FitAnswer a = f.fit(r.n(), loaded.others(), said.resolve());
                    return new Answer(a.tables(), a.failure());
                }
                if (!laws) return new Answer(f.report(r.n(), r.limit()), null);
                List<Output> out = new ArrayList<>(f.report(r.n(), 0));
                out.set(out.size() - 1, f.laws(r.n()).get(0));
                return new Answer(out, null);
            } catch (NotASeries e) {
                throw new Refusal(e);
            }
        }
    }

    /**
     * {@code forecast chips at N} or {@code chips fit}: {@code m}, an SPMD compile, on another number of
     * devices; the fit against the capacity {@code said}.
     *
     * @throws IllegalArgumentException when {@code m} is no SPMD compile, or the capacity does not resolve
     * @throws QueryException           when the sweep fails
     */
    public static List<Output> chips(HloModule m, ForecastRequest r, CapacitySaid said, Catalog catalog, TilingModel tiling,
                                     Function<String, TilingModel> tilings) throws QueryException {
        MeshForecast f = MeshForecast.of(m, catalog, tiling, tilings);
        return r.fit() ? f.fitReport(said.resolve()) : f.report(r.n());
    }
}
