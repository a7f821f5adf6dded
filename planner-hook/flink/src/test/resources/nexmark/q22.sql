-- Nexmark's q22 (github.com/nexmark/nexmark, nexmark-flink/src/main/resources/queries/q22.sql,
-- Apache License 2.0): the benchmark's definition, its sink a Kafka topic here.
CREATE TABLE nexmark_q22 (auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, dir1 VARCHAR, dir2 VARCHAR, dir3 VARCHAR) WITH (${APPEND});

INSERT INTO nexmark_q22
SELECT
    auction, bidder, price, channel,
    SPLIT_INDEX(url, '/', 3) as dir1,
    SPLIT_INDEX(url, '/', 4) as dir2,
    SPLIT_INDEX(url, '/', 5) as dir3 FROM bid;
