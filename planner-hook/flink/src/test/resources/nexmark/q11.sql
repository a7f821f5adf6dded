-- Nexmark's q11 (github.com/nexmark/nexmark, nexmark-flink/src/main/resources/queries/q11.sql,
-- Apache License 2.0): the benchmark's definition, its sink a Kafka topic here.
CREATE TABLE nexmark_q11 (bidder BIGINT, bid_count BIGINT, starttime TIMESTAMP(3), endtime TIMESTAMP(3)) WITH (${APPEND});

INSERT INTO nexmark_q11
SELECT
    B.bidder,
    count(*) as bid_count,
    SESSION_START(B.`dateTime`, INTERVAL '10' SECOND) as starttime,
    SESSION_END(B.`dateTime`, INTERVAL '10' SECOND) as endtime
FROM bid B
GROUP BY B.bidder, SESSION(B.`dateTime`, INTERVAL '10' SECOND);
