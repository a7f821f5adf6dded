-- Nexmark's q4 (github.com/nexmark/nexmark, nexmark-flink/src/main/resources/queries/q4.sql,
-- Apache License 2.0): the benchmark's definition, its sink a Kafka topic here.
CREATE TABLE nexmark_q4 (id BIGINT, final BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH (${UPSERT});

INSERT INTO nexmark_q4
SELECT Q.category, AVG(Q.final)
FROM (
    SELECT MAX(B.price) AS final, A.category
    FROM auction A, bid B
    WHERE A.id = B.auction AND B.`dateTime` BETWEEN A.`dateTime` AND A.expires
    GROUP BY A.id, A.category
) Q
GROUP BY Q.category;
