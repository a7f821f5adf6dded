-- Nexmark's q19 (github.com/nexmark/nexmark, nexmark-flink/src/main/resources/queries/q19.sql,
-- Apache License 2.0): the benchmark's definition, its sink a Kafka topic here.
CREATE TABLE nexmark_q19 (
    auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, `dateTime` TIMESTAMP(3), extra VARCHAR,
    rank_number BIGINT, PRIMARY KEY (auction, rank_number) NOT ENFORCED) WITH (${UPSERT});

INSERT INTO nexmark_q19
SELECT * FROM
(SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS rank_number FROM bid)
WHERE rank_number <= 10;
