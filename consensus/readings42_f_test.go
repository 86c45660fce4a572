package consensus

import "testing"

// TestFractionUnitSaidOnce reads a fraction written in digits whose unit
// one side leaves unsaid ("under 0.5 ppm" against "below 0.5 mg/L", a
// key "distance_m <= 0.5" against "within 0.5 metres") as the same
// number, as a whole number already is; another fraction, or the same
// fraction in another unit, stays a change.
func TestFractionUnitSaidOnce(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"chlorine in ppm", "Pool chlorine", "Close the pool if free chlorine falls below 0.5 mg/L.",
			"shut the pool straight away if a chlorine reading comes in under 0.5 ppm", Agree, ""},
		{"distance key", "Gas main digging", "Within 0.5 metres of a gas main, dig by hand only.",
			`hand tools only when distance_to_gas_main_m <= 0.5, never an excavator`, Agree, ""},
		{"breath test bare", "Blood alcohol", "Drivers with a reading above 0.2 g/L are stood down.",
			"stand the driver down if the breath test reads over 0.2", Agree, ""},
		{"chlorine raised", "Pool chlorine", "Close the pool if free chlorine falls below 0.5 mg/L.",
			"shut the pool if a chlorine reading comes in under 0.8 ppm", Disagree, "0.8"},
		{"breath test raised", "Blood alcohol", "Drivers with a reading above 0.2 g/L are stood down.",
			"stand the driver down if the breath test reads over 0.5", Disagree, "0.5"},
		{"another unit", "Latency budget", "Requests slower than 1.5 seconds are logged as slow.",
			"log as slow any request over 1.5 minutes", Disagree, "1.5 minutes"},
		{"distance lowered", "Gas main digging", "Within 0.5 metres of a gas main, dig by hand only.",
			`hand tools only when distance_to_gas_main_m <= 0.3, never an excavator`, Disagree, "0.3"},
	})
}
