package consensus

import "testing"

// TestConfigZeroSaysNone: a configuration key whose value is zero says
// its thing is not there ("grace_period_minutes = 0" is "no grace
// period"), as a rule says "no grace period"; a number the rule states
// against that zero still differs, and a bound's zero ("min_stock: 0")
// or a point on a scale ("start_hour: 0") stays a number.
func TestConfigZeroSaysNone(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Bikes returned late are charged a fee of 5 euros; there is no grace period.", "[late_return] fee_eur = 5 grace_period_minutes = 0", Agree},
		{"Members may cancel within 14 days with no cancellation fee.", "CANCEL_WINDOW_DAYS=14 CANCELLATION_FEE_GBP=0", Agree},
		{"Contractors are not paid overtime; the day rate covers up to 10 hours.", "contractor_pay: {overtime_multiplier: 0, day_rate_covers_hours: 10}", Agree},
		{"An aborted game has no rating change for either player.", `<abort rating_change="0" applies_to="both_players"/>`, Agree},
		{"Reminder emails go out straight away, with no delay after signup.", "reminder_delay_minutes = 0", Agree},

		{"Bikes returned late are charged a fee of 5 euros with a 10-minute grace period.", "[late_return] fee_eur = 5 grace_period_minutes = 0", Disagree},
		{"Members may cancel within 14 days for a cancellation fee of £20.", "CANCEL_WINDOW_DAYS=14 CANCELLATION_FEE_GBP=0", Disagree},
		{"Reminder emails go out 2 hours after signup.", "reminder_delay_minutes = 0", Disagree},
		{"An aborted game costs each player 5 rating points.", `<abort rating_change="0" applies_to="both_players"/>`, Disagree},
	})
	checkVoiced(t, []voicedCase{
		{"grace_period_minutes = 0", "no grace period minutes"},
		{"fee_gbp: 0.00", "no fee gbp"},
		{"min_stock: 0", "min stock 0"},
		{"start_hour: 0", "start hour 0"},
		{"h100_per_region = 0", "h100 per region 0"},
		{"retry_factor: 0.5", "retry factor 0.5"},
	})
}

// TestConfigCompoundUnit: a key that ends with a unit of one measure per
// another ("_mm_s", "_km_h", "_mg_kg", "mgl") or percentage points
// ("_pp") gives its value that unit, written after it as a rule writes
// it; another value still differs.
func TestConfigCompoundUnit(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Cranes stop lifting when the wind exceeds 20 m/s.", "crane.stop_lifting_above_wind_m_s = 20", Agree},
		{"Children get 10 mg/kg of paracetamol per dose.", "dose_paracetamol_child_mg_kg: 10", Agree},
		{"Blasting vibration must stay below 10 mm/s at the nearest house.", "vibration: {max_ppv_mm_s: 10, measured_at: nearest_house}", Agree},

		{"Forklifts are limited to 10 km/h inside the warehouse.", "FORKLIFT_MAX_SPEED_KM_H=15 # inside warehouse", Disagree},
		{"Children get 10 mg/kg of paracetamol per dose.", "dose_paracetamol_child_mg_kg: 15", Disagree},
		{"Close the pool if free chlorine falls below 0.5 mg/L.", "close_pool_if_chlorine_below_mgl: 0.3", Disagree},
		{"Borrowers on autopay get a 0.25 percentage point rate reduction.", "autopay_discount_pp = 0.25", Agree},
		{"Borrowers on autopay get a 0.25 percentage point rate reduction.", "autopay_discount_pp = 0.5", Disagree},
	})
	checkVoiced(t, []voicedCase{
		{"max_wind_m_s: 20", "max wind 20 m/s"},
		{"chlorine_min_mgl = 1.0", "chlorine min 1.0 mg/l"},
		{"residue_mg_per_kg: 0.01", "residue 0.01 mg/kg"},
		{"tank_l_min: 200", "tank l min 200"},
		{"timeout_ms: 300", "timeout ms 300"},
		{"autopay_discount_pp = 0.25", "autopay discount 0.25 percentage points"},
	})
}

// TestConfigExemptFrom: a key that says its value is exempt from
// something ("exempt_from_limit: [staff]") reads as a rule says it, who
// is exempt before what from; an empty list exempts no one.
func TestConfigExemptFrom(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Staff are exempt from the weekly booking limit of 12 hours.", "booking: {max_hours_per_week: 12, exempt_from_limit: [staff]}", Agree},
		{"Staff are exempt from the weekly booking limit of 12 hours.", "booking: {max_hours_per_week: 12, exempt_from_limit: staff}", Agree},
	})
	checkVoiced(t, []voicedCase{
		{"exempt_from_weekly_cap: [:facility_staff]", "facility staff exempt from weekly cap"},
		{"exemptFromDeduction: ['pass/fail modules', resits]", "pass/fail modules, resits exempt from deduction"},
		{"exempt_from_limit: {caravan: true}", "exempt from limit {caravan}"},
	})
}

// TestConfigFileLabel: a comment at the start that names the file a
// configuration is kept in ("# gallery-lighting.toml") is no word of the
// rule; a comment that says more than the name stays.
func TestConfigFileLabel(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Display loaned works on paper at no more than 50 lux.", "# gallery-lighting.toml  [loans.works_on_paper]  max_lux = 50", Agree},
	})
	checkVoiced(t, []voicedCase{
		{"# gallery-lighting.toml  [loans.works_on_paper]  max_lux = 50", "[loans.works_on_paper] max lux 50"},
		{"-- site.lua: roof_sheets = { lift_by = 2 }", "roof sheets { lift by 2 }"},
		{"# values.yaml for routing-svc -- x: 1", "# values.yaml for routing-svc -- x: 1"},
	})
}

// TestConfigYesNoOfOtherLanguages: the yes and no of PowerShell
// ("$false"), Objective-C ("@NO") and Fortran (".TRUE.") say the key or
// deny it as "false" and "true" do.
func TestConfigYesNoOfOtherLanguages(t *testing.T) {
	t.Parallel()
	checkVoiced(t, []voicedCase{
		{"$Policy = @{ PublishBeforeEmbargo = $false; Notify = $true }", "$policy @{ not publish before embargo; notify }"},
		{"&POT guard_fitted = .TRUE., kill_cord = .FALSE. /", "&POT guard fitted, not kill cord /"},
		{"x = $foo", "x $foo"},
	})
}
