-- Nexmark's q3 (github.com/nexmark/nexmark, nexmark-flink/src/main/resources/queries/q3.sql,
-- Apache License 2.0): the benchmark's definition, its sink a Kafka topic here.
CREATE TABLE nexmark_q3 (name VARCHAR, city VARCHAR, state VARCHAR, id BIGINT) WITH (${APPEND});

INSERT INTO nexmark_q3
SELECT P.name, P.city, P.state, A.id
FROM auction AS A INNER JOIN person AS P on A.seller = P.id
WHERE A.category = 10 and (P.state = 'OR' OR P.state = 'ID' OR P.state = 'CA');
