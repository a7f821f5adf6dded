package expr

// Functions of Flink that always run on Flink, each with the reason: the support matrix lists
// them so that "not native" is a documented decision, not an omission.
func init() {
	const javaMath = "Flink calls java.lang.Math (HotSpot intrinsics), whose results may differ in the last bit from any Go implementation"
	for _, f := range []struct{ name, family, why string }{
		{"POWER", "arithmetic", javaMath + " (SQRT is planned as POWER(x, 0.5))"},
		{"EXP", "arithmetic", javaMath},
		{"LN", "arithmetic", javaMath},
		{"LOG10", "arithmetic", javaMath},
		{"LOG", "arithmetic", javaMath},
		{"RAND", "arithmetic", "nondeterministic: a native run could not give Flink's numbers"},
		{"RAND_INTEGER", "arithmetic", "nondeterministic: a native run could not give Flink's numbers"},
		{"UUID", "string", "nondeterministic: a native run could not give Flink's values"},
	} {
		register(&Function{Name: f.name, Family: f.family, Doc: "runs on Flink: " + f.why, Fallback: f.why})
	}
}
