-- Nexmark's q1 (github.com/nexmark/nexmark, nexmark-flink/src/main/resources/queries/q1.sql,
-- Apache License 2.0): the benchmark's definition, its sink a Kafka topic here.
CREATE TABLE nexmark_q1 (auction BIGINT, bidder BIGINT, price DECIMAL(23, 3), `dateTime` TIMESTAMP(3), extra VARCHAR) WITH (${APPEND});

INSERT INTO nexmark_q1
SELECT auction, bidder, 0.908 * price as price, `dateTime`, extra FROM bid;
