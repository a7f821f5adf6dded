-- Nexmark's q2 (github.com/nexmark/nexmark, nexmark-flink/src/main/resources/queries/q2.sql,
-- Apache License 2.0): the benchmark's definition, its sink a Kafka topic here.
CREATE TABLE nexmark_q2 (auction BIGINT, price BIGINT) WITH (${APPEND});

INSERT INTO nexmark_q2
SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0;
