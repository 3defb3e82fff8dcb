package bufq.export;

/**
 * Field numbers of pprof's {@code profile.proto} that {@link PprofExport} writes, as in
 * {@code query-engine/src/main/proto/profile.proto} (pprof's own numbers; a test reads that file and
 * checks these against it).
 */
final class ProfileFields {
    private ProfileFields() {}

    static final int PROFILE_SAMPLE_TYPE = 1;
    static final int PROFILE_SAMPLE = 2;
    static final int PROFILE_MAPPING = 3;
    static final int PROFILE_LOCATION = 4;
    static final int PROFILE_FUNCTION = 5;
    static final int PROFILE_STRING_TABLE = 6;
    static final int PROFILE_PERIOD_TYPE = 11;
    static final int PROFILE_PERIOD = 12;
    static final int PROFILE_COMMENT = 13;
    static final int PROFILE_DEFAULT_SAMPLE_TYPE = 14;

    static final int VALUE_TYPE_TYPE = 1;
    static final int VALUE_TYPE_UNIT = 2;

    static final int SAMPLE_LOCATION_ID = 1;
    static final int SAMPLE_VALUE = 2;
    static final int SAMPLE_LABEL = 3;

    static final int LABEL_KEY = 1;
    static final int LABEL_STR = 2;

    static final int MAPPING_ID = 1;
    static final int MAPPING_FILENAME = 5;
    static final int MAPPING_HAS_FUNCTIONS = 7;
    static final int MAPPING_HAS_FILENAMES = 8;
    static final int MAPPING_HAS_LINE_NUMBERS = 9;

    static final int LOCATION_ID = 1;
    static final int LOCATION_MAPPING_ID = 2;
    static final int LOCATION_LINE = 4;

    static final int LINE_FUNCTION_ID = 1;
    static final int LINE_LINE = 2;

    static final int FUNCTION_ID = 1;
    static final int FUNCTION_NAME = 2;
    static final int FUNCTION_FILENAME = 4;
}
