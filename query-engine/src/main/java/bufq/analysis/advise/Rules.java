package bufq.analysis.advise;

import java.util.List;

/** The built-in rules, in the order their findings are listed when they save the same. */
public final class Rules {
    private Rules() {}

    public static List<Rule> standard() {
        return List.of(new ShardRule(), new RegatherRule(), new BigBufferRule(), new ActivationRule(), new ScanRematRule(),
                new AttentionRule(), new OffloadRule(), new RematPolicyRule(),
                new DonationRule(), new HalfPrecisionRule(), new PaddingRule(), new IdleRule(), new FragmentationRule());
    }
}
