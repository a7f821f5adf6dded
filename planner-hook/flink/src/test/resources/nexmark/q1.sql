CREATE TABLE nexmark_q1 (auction BIGINT, bidder BIGINT, price DECIMAL(23, 3), `dateTime` TIMESTAMP(3), extra VARCHAR) WITH (${APPEND});

INSERT INTO nexmark_q1
SELECT auction, bidder, 0.908 * price as price, `dateTime`, extra FROM bid;
