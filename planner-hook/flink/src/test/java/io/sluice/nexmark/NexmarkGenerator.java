package io.sluice.nexmark;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;

/**
 * Nexmark's event stream (persons, auctions and bids) as the JSON records of the nexmark table
 * ({@code event_type INT, person ROW, auction ROW, bid ROW}), following the model of Nexmark's
 * Flink generator described in docs/internals/nexmark.md §1: the 1:3:46 interleaving by event id,
 * the timestamp formula, hot sellers, bidders and auctions, the active person and auction
 * windows, log-uniform prices, the string and {@code extra} length rules, and the bidder id
 * offset. Unlike Nexmark's, every event's random draws are seeded by its event id (as Apache
 * Beam's generator does), so that a stream is the same in every run. One generator is one of
 * Nexmark's splits: {@code generators} of them share the timeline, each with its own ids.
 */
public final class NexmarkGenerator {
    /** The event time of the first event: 2023-11-14T22:13:20Z. */
    public static final long BASE_TIME = 1_700_000_000_000L;

    static final int TOTAL_PROPORTION = 50;
    static final int FIRST_ID = 1000;
    static final int ACTIVE_PEOPLE = 1000;
    static final int IN_FLIGHT_AUCTIONS = 100;
    static final String[] FIRST_NAMES = {"Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter", "Walter"};
    static final String[] LAST_NAMES = {"Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris"};
    static final String[] CITIES = {"Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland", "Bend", "Redmond", "Seattle", "Kent",
        "Cheyenne"};
    static final String[] STATES = {"AZ", "CA", "ID", "OR", "WA", "WY"};
    static final String[] HOT_CHANNELS = {"Google", "Facebook", "Baidu", "Apple"};
    static final int CHANNELS = 10_000;
    static final DateTimeFormatter SQL_TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    /** The 1 MiB pool {@code extra} values are cut from, and the URLs: the same for every generator. */
    static final String POOL;
    static final String[] HOT_URLS = new String[HOT_CHANNELS.length];
    static final String[] CHANNEL_URLS = new String[CHANNELS];

    static {
        SplittableRandom rnd = new SplittableRandom(0x6e65786d61726bL);
        StringBuilder pool = new StringBuilder(1 << 20);
        while (pool.length() < 1 << 20) {
            int r = rnd.nextInt();
            for (int k = 0; k < 6 && pool.length() < 1 << 20; k++) {
                pool.append((char) ('a' + r % 26)); // r may be negative: ASCII 72 to 122
                r /= 26;
            }
        }
        POOL = pool.toString();
        for (int i = 0; i < HOT_URLS.length; i++) {
            HOT_URLS[i] = url(rnd);
        }
        for (int c = 0; c < CHANNELS; c++) {
            CHANNEL_URLS[c] = url(rnd) + (rnd.nextInt(10) > 0 ? "&channel_id=" + Math.abs(Integer.reverse(c)) : "");
        }
    }

    private final long events;
    private final long firstEventId;
    private final double interEventDelayUs;

    /**
     * Split {@code split} of {@code generators} over {@code totalEvents} events at {@code rate}
     * events per second of event time (all splits together).
     */
    public NexmarkGenerator(long totalEvents, long rate, int generators, int split) {
        long per = totalEvents / generators;
        this.events = split == generators - 1 ? totalEvents - per * (generators - 1) : per;
        this.firstEventId = 1 + split * per;
        this.interEventDelayUs = 1_000_000.0 / rate * generators;
    }

    /** The number of events of this split. */
    public long events() {
        return events;
    }

    /** The event time (epoch milliseconds) of the event with this event number (1-based). */
    long timestamp(long eventNumber) {
        return BASE_TIME + ((long) (eventNumber * interEventDelayUs)) / 1000;
    }

    /** The event time of the k-th event of this split (0-based). */
    public long timestampOf(long k) {
        return timestamp(1 + k);
    }

    /** The JSON record of the k-th event of this split (0-based). */
    public String event(long k) {
        long eventNumber = 1 + k;
        long e = firstEventId + eventNumber;
        long time = timestamp(eventNumber);
        SplittableRandom rnd = new SplittableRandom(e);
        int slot = (int) (e % TOTAL_PROPORTION);
        StringBuilder out = new StringBuilder(320);
        if (slot == 0) {
            out.append("{\"event_type\":0,\"person\":");
            person(out, rnd, e, time);
            out.append(",\"auction\":null,\"bid\":null}");
        } else if (slot <= 3) {
            out.append("{\"event_type\":1,\"person\":null,\"auction\":");
            auction(out, rnd, e, eventNumber, time);
            out.append(",\"bid\":null}");
        } else {
            out.append("{\"event_type\":2,\"person\":null,\"auction\":null,\"bid\":");
            bid(out, rnd, e, time);
            out.append('}');
        }
        return out.toString();
    }

    static long lastPerson(long e) {
        return e / TOTAL_PROPORTION;
    }

    static long lastAuction(long e) {
        long epoch = e / TOTAL_PROPORTION;
        long off = e % TOTAL_PROPORTION;
        if (off < 1) {
            return (epoch - 1) * 3 + 2;
        }
        return off >= 4 ? epoch * 3 + 2 : epoch * 3 + (off - 1);
    }

    static long nextLong(SplittableRandom rnd, long n) {
        return n < Integer.MAX_VALUE ? rnd.nextInt((int) n) : Math.abs(rnd.nextLong() % n);
    }

    /** One of the last active people, or one of the next 10 (not created yet). */
    static long randomPerson(SplittableRandom rnd, long e) {
        long people = lastPerson(e) + 1;
        long active = Math.min(people, ACTIVE_PEOPLE);
        return people - active + nextLong(rnd, active + 10);
    }

    /** One of the auctions in flight, or one of the next 10. */
    static long randomAuction(SplittableRandom rnd, long e) {
        long max = lastAuction(e);
        long min = Math.max(max - IN_FLIGHT_AUCTIONS, 0);
        return min + nextLong(rnd, max - min + 1 + 10);
    }

    /** A price in cents, log-uniform over [100, 1e8). */
    static long price(SplittableRandom rnd) {
        return Math.round(Math.pow(10.0, rnd.nextDouble() * 6.0) * 100.0);
    }

    /** A string of 3 to max - 1 characters, a to z with the special character one in 13, trimmed. */
    static String str(SplittableRandom rnd, int max, char special) {
        int len = 3 + rnd.nextInt(max - 3);
        StringBuilder s = new StringBuilder(len);
        for (int i = 0; i < len; i++) {
            s.append(rnd.nextInt(13) == 0 ? special : (char) ('a' + rnd.nextInt(26)));
        }
        return s.toString().trim();
    }

    static String url(SplittableRandom rnd) {
        return "https://www.nexmark.com/" + str(rnd, 5, '_') + "/" + str(rnd, 5, '_') + "/" + str(rnd, 5, '_')
                + "/item.htm?query=1";
    }

    /** The extra field that brings a record of size current to about avg. */
    static String extra(SplittableRandom rnd, int current, int avg) {
        if (current > avg) {
            return "";
        }
        int d = avg - current;
        int delta = (int) Math.round(d * 0.2);
        int len = d - delta + (delta == 0 ? 0 : rnd.nextInt(2 * delta));
        int at = rnd.nextInt((1 << 20) - len);
        return POOL.substring(at, at + len);
    }

    void person(StringBuilder out, SplittableRandom rnd, long e, long time) {
        long id = lastPerson(e) + FIRST_ID;
        String name = FIRST_NAMES[rnd.nextInt(FIRST_NAMES.length)] + " " + LAST_NAMES[rnd.nextInt(LAST_NAMES.length)];
        String email = str(rnd, 7, ' ') + "@" + str(rnd, 5, ' ') + ".com";
        String card = String.format("%04d %04d %04d %04d", rnd.nextInt(10000), rnd.nextInt(10000), rnd.nextInt(10000),
                rnd.nextInt(10000));
        String city = CITIES[rnd.nextInt(CITIES.length)];
        String state = STATES[rnd.nextInt(STATES.length)];
        String extra = extra(rnd, 8 + name.length() + email.length() + card.length() + city.length() + state.length(), 200);
        out.append("{\"id\":").append(id);
        field(out, "name", name);
        field(out, "emailAddress", email);
        field(out, "creditCard", card);
        field(out, "city", city);
        field(out, "state", state);
        field(out, "dateTime", SQL_TIMESTAMP.format(Instant.ofEpochMilli(time)));
        field(out, "extra", extra);
        out.append('}');
    }

    void auction(StringBuilder out, SplittableRandom rnd, long e, long eventNumber, long time) {
        long id = lastAuction(e) + FIRST_ID;
        long seller = rnd.nextInt(4) > 0 ? lastPerson(e) / 100 * 100 : randomPerson(rnd, e);
        seller += FIRST_ID;
        long category = 10 + rnd.nextInt(5);
        long initialBid = price(rnd);
        long horizon = timestamp(eventNumber + 100L * TOTAL_PROPORTION / 3) - time;
        long expires = time + 1 + nextLong(rnd, Math.max(2 * horizon, 1));
        String itemName = str(rnd, 20, ' ');
        String description = str(rnd, 100, ' ');
        long reserve = initialBid + price(rnd);
        String extra = extra(rnd, 48 + itemName.length() + description.length(), 500);
        out.append("{\"id\":").append(id);
        field(out, "itemName", itemName);
        field(out, "description", description);
        out.append(",\"initialBid\":").append(initialBid).append(",\"reserve\":").append(reserve);
        field(out, "dateTime", SQL_TIMESTAMP.format(Instant.ofEpochMilli(time)));
        field(out, "expires", SQL_TIMESTAMP.format(Instant.ofEpochMilli(expires)));
        out.append(",\"seller\":").append(seller).append(",\"category\":").append(category);
        field(out, "extra", extra);
        out.append('}');
    }

    void bid(StringBuilder out, SplittableRandom rnd, long e, long time) {
        long auction = rnd.nextInt(2) > 0 ? lastAuction(e) / 100 * 100 : randomAuction(rnd, e);
        auction += FIRST_ID;
        long bidder = rnd.nextInt(4) > 0 ? lastPerson(e) / 100 * 100 + 1 : randomPerson(rnd, e);
        bidder += FIRST_ID + FIRST_ID; // Nexmark's generator adds the first id twice
        long price = price(rnd);
        String channel;
        String url;
        if (rnd.nextInt(2) > 0) {
            int i = rnd.nextInt(HOT_CHANNELS.length);
            channel = HOT_CHANNELS[i];
            url = HOT_URLS[i];
        } else {
            int c = rnd.nextInt(CHANNELS);
            channel = "channel-" + c;
            url = CHANNEL_URLS[c];
        }
        String extra = extra(rnd, 32, 100);
        out.append("{\"auction\":").append(auction).append(",\"bidder\":").append(bidder).append(",\"price\":").append(price);
        field(out, "channel", channel);
        field(out, "url", url);
        field(out, "dateTime", SQL_TIMESTAMP.format(Instant.ofEpochMilli(time)));
        field(out, "extra", extra);
        out.append('}');
    }

    /** Appends ,"name":"value" (JSON escapes for the pool's backslash and quote-free text). */
    static void field(StringBuilder out, String name, String value) {
        out.append(",\"").append(name).append("\":\"");
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\' || c == '"') {
                out.append('\\');
            }
            out.append(c);
        }
        out.append('"');
    }
}
