package expr

// Call shapes of the registered functions: the grammar of the differential fuzzer
// (testkit/fuzz), kept here so that the registry stays the single source of what is native.
//
// Notation of one shape: "<result> <- <SQL template>", optionally followed by
// "; <V> in <value> <value> ..." which expands the shape once per value bound to the variable V:
// a class where V is used as {V} (a hole) or as the result, any text where it is written $V.
// Holes in the template:
//
//	{c}    any expression of class c (a column, a literal or a nested call)
//	{c!}   a literal of class c
//	{pat}  a LIKE pattern literal
//	{digits} a small unsigned number, for interval literals
//	{small}  a small integer literal, possibly negative, for counts, lengths and positions
//	{V}    an expression of the class bound to variable V
//
// Classes: bool, int (TINYINT to BIGINT), approx (FLOAT, DOUBLE), dec (DECIMAL), str (CHAR,
// VARCHAR), bin (BINARY, VARBINARY), date, time, ts (TIMESTAMP up to precision 3), ts6
// (TIMESTAMP(4..6)), ltz (TIMESTAMP_LTZ(3)), arr (ARRAY of integers), map (MAP from strings to
// integers), row (ROW values: results only, never a hole).
//
// Package-level variables are initialised before any init function runs, so register can attach
// these to the functions it registers.
var shapes = map[string][]string{
	"+": {
		"A <- {A} + {A} ; A in int approx dec",
		"dec <- {dec} + {int}",
		"approx <- {int} + {approx}",
		"ts <- {ts} + INTERVAL '{digits}' SECOND",
		"ts <- {ts} + INTERVAL '1 02:03:04.005' DAY TO SECOND",
		"ltz <- {ltz} + INTERVAL '{digits}' HOUR",
		"ts6 <- {ts6} + INTERVAL '{digits}.123' SECOND",
		"A <- {A} + INTERVAL '{digits}' MONTH ; A in ts ts6 ltz date",
		"A <- INTERVAL '{digits}-11' YEAR TO MONTH + {A} ; A in ts date",
		"date <- {date} + INTERVAL '{digits}' DAY",
		"date <- {date} + INTERVAL '{digits}' HOUR",
		"ts <- TIMESTAMPADD(MONTH, {small}, {ts})",
		"date <- TIMESTAMPADD(DAY, {small}, {date})",
	},
	"-": {
		"A <- {A} - {A} ; A in int approx dec",
		"dec <- {int} - {dec}",
		"A <- -{A} ; A in int approx dec",
		"ts <- {ts} - INTERVAL '{digits}' MINUTE",
		"ts6 <- {ts6} - INTERVAL '1 00:00:00.5' DAY TO SECOND",
		"A <- {A} - INTERVAL '{digits}' YEAR ; A in ts ts6 date",
		"date <- {date} - INTERVAL '{digits}' DAY",
		"int <- TIMESTAMPDIFF($U, {ts}, {ts}) ; U in SECOND MINUTE HOUR DAY WEEK MONTH QUARTER YEAR",
		"int <- TIMESTAMPDIFF($U, {ts6}, {ts}) ; U in SECOND DAY MONTH",
		"int <- TIMESTAMPDIFF($U, {date}, {date}) ; U in DAY WEEK MONTH YEAR",
		"int <- TIMESTAMPDIFF($U, {ts}, {date}) ; U in HOUR MONTH",
		"int <- TIMESTAMPDIFF($U, {date}, {ts6}) ; U in MINUTE YEAR",
		"int <- TIMESTAMPDIFF($U, {ltz}, {ltz}) ; U in SECOND MONTH",
	},
	"/INT": {
		"int <- TIMESTAMPDIFF(SECOND, {ts}, {ts})",
	},
	"REINTERPRET": {
		"int <- TIMESTAMPDIFF(MONTH, {date}, {ts})",
	},
	"*": {
		"A <- {A} * {A} ; A in int approx dec",
		"dec <- {dec} * {int}",
		"approx <- {approx} * {int}",
		// Amounts narrowed to SMALLINT keep results within the years a TIMESTAMP(4..6) holds
		// in Sluice (a wider one fails the row where Flink succeeds; see docs/divergences.md).
		"ts <- TIMESTAMPADD($U, CAST({int} AS SMALLINT), {ts}) ; U in SECOND MINUTE HOUR DAY WEEK MONTH QUARTER YEAR",
		"ts6 <- TIMESTAMPADD($U, CAST({int} AS SMALLINT), {ts6}) ; U in SECOND DAY MONTH",
		"date <- {date} + CAST({int} AS SMALLINT) * INTERVAL '{digits}' DAY",
		"ltz <- {ltz} + INTERVAL '1' MONTH * CAST({int} AS SMALLINT)",
		"ts <- {ts} - (INTERVAL '1' DAY + INTERVAL '{digits}' HOUR) * CAST({int} AS SMALLINT)",
	},
	"/": {
		"A <- {A} / NULLIF({A}, 0) ; A in int approx dec",
		"approx <- {approx} / {approx}",
		"dec <- {dec} / NULLIF({int}, 0)",
	},
	"%": {
		"A <- {A} % NULLIF({A}, 0) ; A in int dec",
		"int <- {int} % {int!}",
	},
	"MOD": {
		"int <- MOD({int}, NULLIF({int}, 0))",
		"dec <- MOD({dec}, NULLIF({dec}, 0))",
	},
	"ABS":  {"A <- ABS({A}) ; A in int approx dec"},
	"SIGN": {"A <- SIGN({A}) ; A in int approx dec"},
	"FLOOR": {
		"A <- FLOOR({A}) ; A in int approx dec",
		"ts <- FLOOR({ts} TO $U) ; U in MILLENNIUM CENTURY DECADE YEAR QUARTER MONTH WEEK DAY HOUR MINUTE SECOND MILLISECOND",
		"ts6 <- FLOOR({ts6} TO $U) ; U in YEAR MONTH WEEK DAY HOUR SECOND MILLISECOND",
		"date <- FLOOR({date} TO $U) ; U in MILLENNIUM CENTURY DECADE YEAR QUARTER MONTH WEEK DAY",
		"time <- FLOOR({time} TO $U) ; U in HOUR MINUTE SECOND",
	},
	"CEIL": {
		"A <- CEIL({A}) ; A in int approx dec",
		"ts <- CEIL({ts} TO $U) ; U in MILLENNIUM CENTURY DECADE YEAR QUARTER MONTH WEEK DAY HOUR MINUTE SECOND MILLISECOND",
		"ts6 <- CEIL({ts6} TO $U) ; U in YEAR MONTH DAY HOUR SECOND MILLISECOND",
		"date <- CEIL({date} TO $U) ; U in CENTURY YEAR QUARTER MONTH WEEK DAY",
		// CEIL of a TIME is native too; no shape, as 23:59:59 rounds up to 24:00, which fails
		// every job that outputs it (many fuzz jobs would fail for the same reason).
	},
	"ROUND": {
		"A <- ROUND({A}, {small}) ; A in int dec",
		"dec <- ROUND({dec})",
	},
	"TRUNCATE": {"dec <- TRUNCATE({dec}, {small})"},
	"<":        {"bool <- {A} < {A} ; A in int approx dec str bin bool date time ts ts6 ltz"},
	"<=":       {"bool <- {A} <= {A} ; A in int approx dec str date ts", "bool <- {dec} <= {approx}"},
	">":        {"bool <- {A} > {A} ; A in int approx dec str date time ts", "bool <- {int} > {dec}"},
	">=":       {"bool <- {A} >= {A} ; A in int approx dec str bin ts6"},
	"=":        {"bool <- {A} = {A} ; A in int approx dec str bin bool date time ts ts6 ltz", "bool <- {approx} = {dec}"},
	"<>":       {"bool <- {A} <> {A} ; A in int approx dec str bool date ts"},
	"SEARCH": {
		"bool <- {A} BETWEEN {A!} AND {A!} ; A in int dec str date ts",
		"bool <- {A} NOT BETWEEN {A!} AND {A!} ; A in int approx",
		"bool <- {A} IN ({A!}, {A!}, {A!}) ; A in int approx dec str date",
		"bool <- {A} NOT IN ({A!}, {A!}) ; A in int str",
		"bool <- ({int} > {int!} AND {int} < {int!}) OR {int} = {int!}",
	},
	"CASE": {
		"A <- CASE WHEN {bool} THEN {A} WHEN {bool} THEN {A} ELSE {A} END ; A in int approx dec str bin date ts bool",
		"A <- CASE WHEN {bool} THEN {A} END ; A in int str dec",
		"A <- CASE {int} WHEN {int!} THEN {A} WHEN {int!} THEN {A} ELSE {A} END ; A in int str",
	},
	"COALESCE": {"A <- COALESCE({A}, {A}, {A}) ; A in int approx dec str bin date ts"},
	"GREATEST": {"A <- GREATEST({A}, {A}) ; A in int approx dec str", "A <- GREATEST({A}, {A}, {A}) ; A in int str"},
	"LEAST":    {"A <- LEAST({A}, {A}) ; A in int approx dec str", "A <- LEAST({A}, {A}, {A}) ; A in int approx"},
	"IF":       {"A <- IF({bool}, {A}, {A}) ; A in int approx dec str date ts"},
	"IFNULL":   {"A <- IFNULL({A}, {A}) ; A in int approx dec str"},
	"CAST": {
		"str <- CAST(INTERVAL '{digits}' MINUTE * {int} AS STRING)",
		"str <- CAST(INTERVAL '{digits}' MONTH * CAST({int} AS SMALLINT) AS STRING)",
		"str <- CAST({A} AS STRING) ; A in int dec bool date time ts ts6",
		"int <- CAST({A} AS TINYINT) ; A in int approx dec bool",
		"int <- CAST({A} AS INT) ; A in int approx dec",
		"int <- CAST({A} AS BIGINT) ; A in int approx dec bool",
		"approx <- CAST({A} AS DOUBLE) ; A in int approx dec bool",
		"approx <- CAST({A} AS FLOAT) ; A in int approx dec",
		"dec <- CAST({A} AS DECIMAL(12, 3)) ; A in int dec",
		"dec <- CAST({A} AS DECIMAL(38, 0)) ; A in int dec",
		"dec <- CAST({dec} AS DECIMAL(5, 2))",
		"bool <- CAST({A} AS BOOLEAN) ; A in int approx dec",
		"int <- CAST({str} AS INT)",
		"str <- CAST({str} AS CHAR(4))",
		"date <- CAST(CAST({date} AS STRING) AS DATE)",
		"ts <- CAST({A} AS TIMESTAMP(0)) ; A in ts ts6",
		"ts6 <- CAST({ts} AS TIMESTAMP(6))",
		"ts <- CAST({ts6} AS TIMESTAMP(3))",
		"ltz <- CAST({ltz} AS TIMESTAMP_LTZ(1))",
		"ltz <- CAST({A} AS TIMESTAMP_LTZ(3)) ; A in ts ts6",
		"ltz <- CAST({A} AS TIMESTAMP_LTZ(0)) ; A in ts ts6",
		"ts <- CAST({ltz} AS TIMESTAMP(3))",
		"str <- CAST({ltz} AS STRING)",
		"date <- CAST({ltz} AS DATE)",
		"ts6 <- CAST({ltz} AS TIMESTAMP(6))",
		"ts <- CAST(CAST({A} AS STRING) AS TIMESTAMP(3)) ; A in ts date",
		"ts6 <- CAST(CAST({ts6} AS STRING) AS TIMESTAMP(6))",
		"ts <- CAST(CAST({ts6} AS STRING) AS TIMESTAMP(1))",
	},
	"REGEXP": {
		"bool <- REGEXP({str}, 'a+')",
		"bool <- REGEXP({str}, '^[a-z]*$')",
		"bool <- REGEXP({str}, '\\d.\\s')",
	},
	"REGEXP_EXTRACT": {
		"str <- REGEXP_EXTRACT({str}, '([a-z]+)([0-9]*)', $G) ; G in 0 1 2 3",
		"str <- REGEXP_EXTRACT({str}, '.b')",
		"str <- REGEXP_EXTRACT({str}, '(x)?y(.)', {int})",
	},
	"REGEXP_REPLACE": {
		"str <- REGEXP_REPLACE({str}, '[aeiou]', {str})",
		"str <- REGEXP_REPLACE({str}, 'a.', 'X')",
		"str <- REGEXP_REPLACE({str}, '\\s+', '_')",
	},
	"TO_TIMESTAMP_LTZ": {
		"ltz <- TO_TIMESTAMP_LTZ({A}, 3) ; A in int approx dec",
		"ltz <- TO_TIMESTAMP_LTZ({A}, 0) ; A in int approx dec",
		"ltz <- TO_TIMESTAMP_LTZ({int})",
	},
	"FROM_UNIXTIME": {
		"str <- FROM_UNIXTIME({int})",
		"str <- FROM_UNIXTIME(CAST({int} AS INT) * 1000)",
	},
	"TO_TIMESTAMP": {
		"ts <- TO_TIMESTAMP({str})",
		"ts <- TO_TIMESTAMP(CAST({A} AS STRING)) ; A in ts6 date",
		"ts <- TO_TIMESTAMP({str}, 'yyyy-MM-dd HH:mm:ss')",
		"ts <- TO_TIMESTAMP({str}, $F) ; F in 'yyyyMMdd' 'dd/MM/yy' 'HH:mm'",
		"ts <- TO_TIMESTAMP(DATE_FORMAT({ts}, 'yyyy-MM-dd HH:mm:ss.SSS'), 'yyyy-MM-dd HH:mm:ss.SSS')",
		"ts <- TO_TIMESTAMP(DATE_FORMAT({ts}, $F), $F) ; F in 'yyyy-MM-dd''T''HH:mm:ss.SSS' 'yyyyMMddHHmmssSSS' 'yy-M-d' 'yyyy''T''HH' 'd/M/yyyy'",
		"ts <- TO_TIMESTAMP(CAST({A} AS STRING), 'yyyy-MM-dd HH:mm:ss') ; A in ts6 date",
	},
	"TO_DATE": {
		"date <- TO_DATE({str})",
		"date <- TO_DATE(CAST({ts} AS STRING))",
	},
	"TRY_CAST": {
		"int <- TRY_CAST({str} AS INT)",
		"int <- TRY_CAST({str} AS BIGINT)",
		"int <- TRY_CAST({str} AS SMALLINT)",
		"approx <- TRY_CAST({str} AS DOUBLE)",
		"approx <- TRY_CAST({str} AS FLOAT)",
		"bool <- TRY_CAST({str} AS BOOLEAN)",
		"date <- TRY_CAST({str} AS DATE)",
		"ts <- TRY_CAST({str} AS TIMESTAMP(3))",
		"ltz <- TRY_CAST(CAST({ts} AS STRING) AS TIMESTAMP_LTZ(3))",
		"ltz <- TRY_CAST({str} AS TIMESTAMP_LTZ(6))",
		"ts6 <- TRY_CAST({str} AS TIMESTAMP(6))",
		"ts <- TRY_CAST(CAST({date} AS STRING) || ' 1:2:3.' AS TIMESTAMP(2))",
		"date <- TRY_CAST(CAST({date} AS STRING) AS DATE)",
	},
	"AND": {"bool <- {bool} AND {bool}", "bool <- {bool} AND {bool} AND {bool}"},
	"OR":  {"bool <- {bool} OR {bool}", "bool <- {bool} OR {bool} OR {bool}"},
	"NOT": {"bool <- NOT {bool}"},
	// Indexes come from the fuzz table's INT column i: a constant index below 1 is rejected by
	// Flink's validator, so literal indexes are positive.
	"ITEM": {
		"A <- ARRAY[{A}, {A}, {A}][MOD(i, 4)] ; A in int approx dec str bin date time ts ts6 bool",
		"A <- ARRAY[{A}, {A}][1] ; A in int str",
		"int <- ARRAY[{int}][2]",
		"int <- {arr}[MOD(i, 4)]",
		"int <- {arr}[$K] ; K in 1 3",
		"int <- {map}[{str}]",
	},
	"CARDINALITY": {
		"int <- CARDINALITY(ARRAY[{A}, {A}]) ; A in int str ts",
		"int <- CARDINALITY({A}) ; A in arr map",
	},
	"MAP": {
		"int <- MAP['a', {int}, 'b', CAST({int} AS INT), {str}, i][{str}]",
		"map <- MAP[{str}, i, 'x', CAST({int} AS INT)]",
	},
	"ELEMENT": {"int <- ELEMENT({arr})", "A <- ELEMENT(ARRAY[{A}]) ; A in int str"},
	"ROW":     {"row <- ROW({int}, {str}, {dec}, {arr})", "row <- ROW({A}, {A}) ; A in ts ltz bin bool"},
	"ARRAY": {
		"A <- ARRAY[{A}, {A}][2] ; A in int approx dec str date ltz",
		"arr <- ARRAY[i, CAST({int} AS INT), {arr}[1]]",
	},
	"SIMILAR TO": {
		"bool <- {str} SIMILAR TO {pat}",
		"bool <- {str} SIMILAR TO {pat} ESCAPE '!'",
		"bool <- {str} SIMILAR TO '$P' ; P in (a|b)% [a-c]_% %[[:DIGIT:]]+% a.c _*(é|世)? [^a]% %[[:ALPHA:]][[:ALPHA:]]",
	},
	"NOT SIMILAR TO": {"bool <- {str} NOT SIMILAR TO {pat}"},
	"IS NULL":        {"bool <- {A} IS NULL ; A in int approx str bin date ts bool dec arr"},
	"IS NOT NULL":    {"bool <- {A} IS NOT NULL ; A in int str time ltz map"},
	"IS TRUE":        {"bool <- {bool} IS TRUE"},
	"IS FALSE":       {"bool <- {bool} IS FALSE"},
	"IS NOT TRUE":    {"bool <- {bool} IS NOT TRUE"},
	"IS NOT FALSE":   {"bool <- {bool} IS NOT FALSE"},
	"||":             {"str <- {str} || {str}"},
	"CONCAT":         {"str <- CONCAT({str}, {str})", "str <- CONCAT({str}, {str}, {str})"},
	"CONCAT_WS":      {"str <- CONCAT_WS({str}, {str}, {str})", "str <- CONCAT_WS({str!}, {str}, {str}, {str})"},
	"UPPER":          {"str <- UPPER({str})"},
	"LOWER":          {"str <- LOWER({str})"},
	"INITCAP":        {"str <- INITCAP({str})"},
	"CHAR_LENGTH":    {"int <- CHAR_LENGTH({str})"},
	"SUBSTRING": {
		"str <- SUBSTRING({str} FROM {int})",
		"str <- SUBSTRING({str} FROM {int} FOR {int})",
	},
	"SUBSTR": {"str <- SUBSTR({str}, {small}, {small})", "str <- SUBSTR({str}, {int})"},
	"TRIM": {
		"str <- TRIM({str})",
		"str <- TRIM(BOTH {str!} FROM {str})",
		"str <- TRIM(LEADING {str!} FROM {str})",
		"str <- TRIM(TRAILING {str!} FROM {str})",
	},
	"LTRIM":       {"str <- LTRIM({str})"},
	"RTRIM":       {"str <- RTRIM({str})"},
	"POSITION":    {"int <- POSITION({str} IN {str})"},
	"LOCATE":      {"int <- LOCATE({str}, {str})", "int <- LOCATE({str}, {str}, {int})"},
	"INSTR":       {"int <- INSTR({str}, {str})", "int <- INSTR({str}, {str}, {small}, {small})"},
	"REPLACE":     {"str <- REPLACE({str}, {str!}, {str})"},
	"LPAD":        {"str <- LPAD({str}, {small}, {str})"},
	"RPAD":        {"str <- RPAD({str}, {small}, {str})"},
	"REPEAT":      {"str <- REPEAT({str}, {small})"},
	"REVERSE":     {"str <- REVERSE({str})"},
	"SPLIT_INDEX": {"str <- SPLIT_INDEX({str}, {str!}, {small})"},
	"LEFT":        {"str <- LEFT({str}, {small})"},
	"RIGHT":       {"str <- RIGHT({str}, {small})"},
	"ASCII":       {"int <- ASCII({str})"},
	"CHR":         {"str <- CHR({int})"},
	"LIKE": {
		"bool <- {str} LIKE {pat}",
		"bool <- {str} NOT LIKE {pat}",
		"bool <- {str} LIKE {pat} ESCAPE '!'",
	},
	"MD5":         {"str <- MD5({str})"},
	"SHA1":        {"str <- SHA1({str})"},
	"SHA256":      {"str <- SHA256({str})"},
	"TO_BASE64":   {"str <- TO_BASE64({str})"},
	"FROM_BASE64": {"str <- FROM_BASE64(TO_BASE64({str}))"},
	"HEX":         {"str <- HEX({str})"},
	"EXTRACT": {
		"int <- EXTRACT(YEAR FROM {A}) ; A in date ts ts6",
		"int <- EXTRACT(MONTH FROM {A}) ; A in date ts",
		"int <- EXTRACT(DAY FROM {A}) ; A in date ts ts6",
		"int <- EXTRACT(HOUR FROM {A}) ; A in time ts ts6",
		"int <- EXTRACT(MINUTE FROM {A}) ; A in time ts",
		"int <- EXTRACT(SECOND FROM {A}) ; A in time ts ts6",
		"int <- EXTRACT(MILLISECOND FROM {A}) ; A in time ts ts6",
		"int <- EXTRACT(MICROSECOND FROM {A}) ; A in ts ts6",
		"int <- EXTRACT(NANOSECOND FROM {ts6})",
		"int <- EXTRACT(EPOCH FROM {A}) ; A in date ts",
		"int <- EXTRACT($U FROM {date}) ; U in QUARTER WEEK DOW DOY ISODOW ISOYEAR DECADE CENTURY MILLENNIUM",
		"int <- EXTRACT($U FROM {ts}) ; U in QUARTER WEEK DOW DOY ISOYEAR",
		"int <- $F({ts}) ; F in YEAR QUARTER MONTH WEEK DAYOFYEAR DAYOFMONTH DAYOFWEEK HOUR MINUTE SECOND",
		"int <- $F({date}) ; F in YEAR MONTH DAYOFWEEK",
		"int <- $F({ltz}) ; F in YEAR QUARTER MONTH WEEK DAYOFYEAR DAYOFMONTH DAYOFWEEK HOUR MINUTE SECOND",
		"int <- EXTRACT($U FROM {ltz}) ; U in EPOCH MILLISECOND MICROSECOND ISOYEAR DECADE",
	},
	"DATE_FORMAT": {
		"str <- DATE_FORMAT({A}, 'yyyy-MM-dd HH:mm:ss') ; A in ts ts6 ltz",
		"str <- DATE_FORMAT({ltz}, 'yyyy-MM-dd HH:00 SSS')",
		"str <- DATE_FORMAT({ts}, $F) ; F in 'yyyy-MM-dd' 'HH' 'yyyyMMddHHmmssSSS' 'D/DD/DDD' 'yy/M/d' 'H:m:s' 'y-yyy-yyyyy' 'yyyy''T''HH''h''dd'",
		"str <- DATE_FORMAT({ts6}, $F) ; F in 'S-SS-SSS-SSSSSS-SSSSSSSSS' 'yyyy-MM-dd''T''HH:mm:ss.SSSSSS' 'mm:ss'",
	},
	// PROCTIME() is NULL in rows (no shape): it only exists as a processing-time attribute.
	"PROCTIME": {},
}
