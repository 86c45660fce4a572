package consensus

import "testing"

// TestKeyCompared: a configuration key that ends with the comparison its
// number is held to, the number's unit just before it
// ("adjuster_if_policy_age_days_lt: 30", "fraud_review_if_amount_eur_over:
// 50000", "logout_if_idle_minutes_gt: 30"), says the rule's bound and its
// unit: "if policy less than 30 days old", "if amount over 50000 eur".
// Another number, another unit or the comparison turned still conflicts.
func TestKeyCompared(t *testing.T) {
	t.Parallel()
	topics := map[string][]agreementCase{}
	var order []string
	for _, c := range []struct {
		topic string
		agreementCase
	}{
		{`Young policies and adjusters`, agreementCase{`Claims on policies less than 30 days old always go to an adjuster.`, `claims: { adjuster_required_if_policy_age_days_lt: 30 }`, Agree}},
		{`Young policies and adjusters`, agreementCase{`Claims on policies less than 30 days old always go to an adjuster.`, `claims: { adjuster_required_if_policy_age_days_lt: 60 }`, Disagree}},
		{`Young policies and adjusters`, agreementCase{`Claims on policies less than 30 days old always go to an adjuster.`, `claims: { adjuster_required_if_policy_age_days_gt: 30 }`, Disagree}},
		{`Speed alerts for delivery vans`, agreementCase{`The tracker raises a speeding alert when a van goes faster than 80 km/h.`, `SPEEDING_ALERT_IF_KMH_GT=80`, Agree}},
		{`Speed alerts for delivery vans`, agreementCase{`The tracker raises a speeding alert when a van goes faster than 80 km/h.`, `SPEEDING_ALERT_IF_KMH_GT=100`, Disagree}},
		{`Air quality closures`, agreementCase{`Outdoor PE is cancelled when the air quality index is 201 or higher.`, `[outdoor_pe] cancel_if_aqi_gte = 201`, Agree}},
		{`Air quality closures`, agreementCase{`Outdoor PE is cancelled when the air quality index is 201 or higher.`, `[outdoor_pe] cancel_if_aqi_gte = 151`, Disagree}},
		{`Fraud review of large payouts`, agreementCase{`Payouts over 50,000 EUR get a fraud review before they are sent.`, `payout: {fraud_review_if_amount_eur_over: 50000}`, Agree}},
		{`Fraud review of large payouts`, agreementCase{`Payouts over 50,000 EUR get a fraud review before they are sent.`, `payout: {fraud_review_if_amount_eur_over: 5000}`, Disagree}},
		{`Fraud review of large payouts`, agreementCase{`Payouts over 50,000 EUR get a fraud review before they are sent.`, `payout: {fraud_review_if_amount_usd_over: 50000}`, Disagree}},
		{`Frost protection`, agreementCase{`Sprinklers start when the wet-bulb temperature drops to 1 °C or below.`, `frost: {sprinklers_start_if_wetbulb_c_at_or_below: 1}`, Agree}},
		{`Frost protection`, agreementCase{`Sprinklers start when the wet-bulb temperature drops to 1 °C or below.`, `frost: {sprinklers_start_if_wetbulb_c_at_or_below: 3}`, Disagree}},
		{`Child tickets on the ferry`, agreementCase{`Children under 16 travel at the child fare.`, `config :ferry, child_fare_age_under: 16`, Agree}},
		{`Child tickets on the ferry`, agreementCase{`Children under 16 travel at the child fare.`, `config :ferry, child_fare_age_under: 12`, Disagree}},
		{`Overtime approval`, agreementCase{`Shifts longer than 12 hours need a manager's approval.`, `approval: { manager_required_if_shift_hours_gt: 12 }`, Agree}},
		{`Overtime approval`, agreementCase{`Shifts longer than 12 hours need a manager's approval.`, `approval: { manager_required_if_shift_hours_gt: 10 }`, Disagree}},
		{`Overtime approval`, agreementCase{`Shifts longer than 12 hours need a manager's approval.`, `approval: { manager_required_if_shift_hours_lt: 12 }`, Disagree}},
		{`Slow query logging`, agreementCase{`Queries slower than 500 ms are written to the slow query log.`, `log_slow_queries_ms_above = 500`, Agree}},
		{`Slow query logging`, agreementCase{`Queries slower than 500 ms are written to the slow query log.`, `log_slow_queries_ms_above = 2000`, Disagree}},
		{`Wind limits for crane lifts`, agreementCase{`Crane lifts stop when the wind is above 38 km/h.`, `crane { stop_lifts_if_wind_kmh_above = 38 }`, Agree}},
		{`Wind limits for crane lifts`, agreementCase{`Crane lifts stop when the wind is above 38 km/h.`, `crane { stop_lifts_if_wind_kmh_above = 50 }`, Disagree}},
		{`Large orders check`, agreementCase{`Orders of 500 USD or more need a second approval.`, `orders: {second_approval_if_total_usd_gte: 500}`, Agree}},
		{`Large orders check`, agreementCase{`Orders of 500 USD or more need a second approval.`, `orders: {second_approval_if_total_usd_gte: 1000}`, Disagree}},
		{`Low stock warning`, agreementCase{`The shop is warned when fewer than 5 units of an item are left.`, `{"low_stock_warning_if_units_lt": 5}`, Agree}},
		{`Low stock warning`, agreementCase{`The shop is warned when fewer than 5 units of an item are left.`, `{"low_stock_warning_if_units_lt": 2}`, Disagree}},
		{`Session timeout`, agreementCase{`Sessions idle for more than 30 minutes are logged out.`, `session: {logout_if_idle_minutes_gt: 30}`, Agree}},
		{`Session timeout`, agreementCase{`Sessions idle for more than 30 minutes are logged out.`, `session: {logout_if_idle_minutes_gt: 60}`, Disagree}},
		{`Heavy parcels`, agreementCase{`Parcels over 20 kg need a two-person lift.`, `handling: {two_person_lift_if_weight_kg_over: 20}`, Agree}},
		{`Late payment fee`, agreementCase{`Invoices paid more than 14 days late are charged a 25 GBP fee.`, `late_fee_gbp = 25, late_fee_if_days_late_gt = 14`, Agree}},
		{`Late payment fee`, agreementCase{`Invoices paid more than 14 days late are charged a 25 GBP fee.`, `late_fee_gbp = 25, late_fee_if_days_late_gt = 30`, Disagree}},
		// "ms" before the comparison is left in the key: milliseconds or
		// metres a second.
		{"Roof vents", agreementCase{"Roof vents stay closed when wind speed is above 10 m/s.", "ridge_vents: {keep_closed_if: {wind_ms_above: 10}}", Agree}},
	} {
		if _, ok := topics[c.topic]; !ok {
			order = append(order, c.topic)
		}
		topics[c.topic] = append(topics[c.topic], c.agreementCase)
	}
	for _, topic := range order {
		checkAgreementsOn(t, topic, topics[topic])
	}
}
