package consensus

import "testing"

// TestConfigSetAsideKey: a key that sets its rule aside in a case it
// names ("limitsExemptDuring", "SUPPRESS_ALERT_DURING_…", "bypass-when",
// "override_if") is the exception a rule writes with "except"; a false
// value leaves the key as it was, and another number of the rule still
// differs.
func TestConfigSetAsideKey(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Ad breaks may run at most 12 minutes per hour, except during live sports coverage.",
			`resource "ad_policy" "fm" { max_minutes_per_hour = 12  limits_exempt_during = "live_sports_coverage" }`, Agree},
		{"The store manager is alerted when stock of any item falls below 5 units, except during the annual stocktake.",
			"LOW_STOCK_ALERT_BELOW_UNITS=5 LOW_STOCK_ALERT_TO=store_manager SUPPRESS_ALERT_DURING_ANNUAL_STOCKTAKE=true", Agree},
		{"Page the on-call engineer when disk usage stays above 90% for 10 minutes, except during the weekly backup window.",
			`apiVersion: v1 kind: ConfigMap data: {page_oncall_if_disk_pct_above: "90", for_minutes: "10", suppress_page_during: weekly_backup_window}`, Agree},
		{"Every production deploy needs a second engineer's approval, unless the on-call lead declares an incident.",
			"deployctl --env=production --require-second-approval=true --bypass-when=incident_declared_by_oncall_lead", Agree},
		{"Guest wifi is throttled to 5 Mbps per device, except for conference room bookings.",
			"guest_wifi: {limit_mbps_per_device: 5, override_if: conference_room_booked}", Agree},

		{"The store manager is alerted when stock of any item falls below 5 units, except during the annual stocktake.",
			"LOW_STOCK_ALERT_BELOW_UNITS=10 LOW_STOCK_ALERT_TO=store_manager SUPPRESS_ALERT_DURING_ANNUAL_STOCKTAKE=true", Disagree},
		{"Page the on-call engineer when disk usage stays above 90% for 10 minutes, except during the weekly backup window.",
			`apiVersion: v1 kind: ConfigMap data: {page_oncall_if_disk_pct_above: "80", for_minutes: "10", suppress_page_during: weekly_backup_window}`, Disagree},
		{"Guest wifi is throttled to 5 Mbps per device, except for conference room bookings.",
			"guest_wifi: {limit_mbps_per_device: 5, override_if: vip_guest}", Disagree},
	})
	checkVoiced(t, []voicedCase{
		{"fm.ads.limitsExemptDuring=live_sports_coverage", "fm ads limits except during live_sports_coverage"},
		{"SUPPRESS_ALERT_DURING_SCHEDULED_CLEANING=true", "alert except during scheduled cleaning"},
		{"SUPPRESS_ALERT_DURING_SCHEDULED_CLEANING=false", "not suppress alert during scheduled cleaning"},
		{"bypassWhenMowInRainEnabled: true", "except when mow in rain enabled"},
		{"override_if: vip_guest", "except if vip_guest"},
		{"skip_if: raining", "skip if raining"},
		{"cap_waived_if: appeal_upheld", "cap waived if appeal_upheld"},
		{"override_role: clinic_manager", "override role clinic_manager"},
	})
}

// TestConfigExemptList: a key "exempt" names what its rule is not for,
// a word, a quoted phrase or a list ("exempt: ['medical bag']"), read as
// "except medical bag".
func TestConfigExemptList(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Bags larger than 40 by 30 centimetres must be left in the cloakroom; baby-changing bags and medical bags are exempt.",
			"{ galleries: { maxBagSizeCm: [40, 30], oversizeBags: 'cloakroom', exempt: ['baby-changing bag', 'medical bag'] } }", Agree},
		{"Dogs are admitted for boarding only with a vet card showing boosters within the last 12 months, except puppies on a vet-signed schedule.",
			"defstruct admit_only_with: :vet_card, boosters_within_months: 12, exempt: :puppies_on_vet_signed_schedule", Agree},
		{"Cabin bags may weigh at most 8 kg; musical instruments are exempt.",
			`cabin_bag.max_kg = 10 exempt = "musical instruments"`, Disagree},
	})
	checkVoiced(t, []voicedCase{
		{"exempt: ['baby-changing bag', 'medical bag']", "except baby-changing bag, medical bag"},
		{"exempt: [pregnantFemales, nursing_females]", "except pregnant females, nursing females"},
		{`exempt = "musical instruments"`, "except musical instruments"},
		{"exempt: true", "exempt"},
		{"exempt_from_weekly_cap: [facility_staff]", "facility staff exempt from weekly cap"},
	})
}

// TestConfigUnitPerThing: a key that holds a unit of so much per another
// thing ("eur_per_linear_metre", "price_gbp_per_night",
// "--free-kg-per-passenger") gives its number that unit, written before
// it as a rule writes it, rather than reading the number as so many of
// the thing ("eur per linear metre 2" is not 2 metres); another number
// still differs.
func TestConfigUnitPerThing(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Day traders pay 2 euros per linear metre of stall frontage; producers selling only their own farm produce pay 1 euro per metre.",
			"day_trader_fee <- list(eur_per_linear_metre = 2, own_farm_produce_only_eur_per_metre = 1)", Agree},
		{"Market stalls pay 3 euros per metre of frontage.", "STALL_EUR_PER_METRE=3", Agree},
		{"Each ewe gets 0.5 kg of concentrate per day in late pregnancy.",
			"0 7 * * * /usr/bin/feeder --ration-kg-per-ewe-per-day=0.5 --stage=late_pregnancy", Agree},
		{"Public chargers bill 0.45 euros per kWh, with no session fee.",
			`variable "tariff" { default = { eur_per_kwh = 0.45, session_fee_eur = 0 } }`, Agree},

		{"Market stalls pay 3 euros per metre of frontage.", "STALL_EUR_PER_METRE=4", Disagree},
		{"Each ewe gets 0.5 kg of concentrate per day in late pregnancy.",
			"0 7 * * * /usr/bin/feeder --ration-kg-per-ewe-per-day=0.8 --stage=late_pregnancy", Disagree},
		{"Day traders pay 2 euros per linear metre of stall frontage; producers selling only their own farm produce pay 1 euro per metre.",
			"day_trader_fee <- list(eur_per_linear_metre = 2, own_farm_produce_only_eur_per_metre = 2)", Disagree},
	})
	checkVoiced(t, []voicedCase{
		{"eur_per_linear_metre = 2", "2 eur per linear metre"},
		{"price_gbp_per_night: 15", "price 15 gbp per night"},
		{"--free-kg-per-passenger=23", "free 23 kg per passenger"},
		{"rooms_per_floor: 12", "rooms per floor 12"},
		{"eur_per_kwh: tiered", "eur per kwh tiered"},
	})
}

// TestConfigUnitInsideKey: a key that says its unit of time before a word
// or two that qualify it ("KYC_REFRESH_MONTHS_HIGH", "dwell_hours_pharmacy")
// gives its number that unit; not a unit tied to another thing after it
// ("minutes_from_home", "hours_per_day", "hours_percent").
func TestConfigUnitInsideKey(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Re-verify identity every 1 year for high-risk customers and every 3 years for low-risk customers.",
			"KYC_REFRESH_MONTHS_HIGH=12 KYC_REFRESH_MONTHS_LOW=36", Agree},
		{"Re-verify identity every 1 year for high-risk customers and every 3 years for low-risk customers.",
			"KYC_REFRESH_MONTHS_HIGH=12 KYC_REFRESH_MONTHS_LOW=24", Disagree},
		{"Parcels wait in the locker for 72 hours, or 120 hours for pharmacy orders.",
			"locker: {dwell_hours_standard: 72, dwell_hours_pharmacy: 96}", Disagree},
	})
	checkVoiced(t, []voicedCase{
		{"KYC_REFRESH_MONTHS_HIGH=12", "kyc refresh high 12 months"},
		{"max_drive_minutes_from_home: 8", "max drive minutes from home 8"},
		{"booth_hours_per_day_max: 6", "booth hours per day max 6"},
		{"atRatedHoursPercent: 90", "at rated hours percent 90"},
		{"retention_days: 30", "retention days 30"},
	})
}
