-- Nexmark's q18 (github.com/nexmark/nexmark, nexmark-flink/src/main/resources/queries/q18.sql,
-- Apache License 2.0): the benchmark's definition, its sink a Kafka topic here.
CREATE TABLE nexmark_q18 (
    auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, `dateTime` TIMESTAMP(3), extra VARCHAR,
    PRIMARY KEY (bidder, auction) NOT ENFORCED) WITH (${UPSERT});

INSERT INTO nexmark_q18
SELECT auction, bidder, price, channel, url, `dateTime`, extra
 FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY bidder, auction ORDER BY `dateTime` DESC) AS rank_number
       FROM bid)
 WHERE rank_number <= 1;
