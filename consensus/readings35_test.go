package consensus

import "testing"

// TestExceptionSaidAsTheRuleSetAside: an exception ("…, unless the
// visitor is escorted") said as the case in which the rule is lifted,
// suppressed, bypassed or overridden agrees; the same words said of
// another case, or with "even if", still change the rule.
func TestExceptionSaidAsTheRuleSetAside(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Refunds are issued within 14 days unless the order was marked as fraud.", "refund_window_days: 14  # suppressed when the order is marked as fraud", Agree},
		{"The speed limit in the yard is 10 km/h except during an emergency response.", "Yard speed limit 10 km/h; the limit is lifted when responding to an emergency.", Agree},
		{"Badges are checked at the door unless the visitor is escorted by staff.", "Door badge check: bypassed if a staff member escorts the visitor.", Agree},
		{"Orders ship the same day except when they are placed after 3 pm.", "Same-day shipping for every order; that is overridden when the order comes in after 3 pm.", Agree},
		{"Commercial breaks total no more than 12 minutes an hour, except during live match coverage.", "ad_cap_minutes_per_hour: 12, cap_lifted_if: live_match_coverage", Agree},
		{"Alarms page the on-call engineer, except during planned maintenance.", "Alarms page on-call, and paging is never suppressed, even during planned maintenance.", Disagree},
		{"Badges are checked at the door unless the visitor is escorted by staff.", "Badges are checked at the door even if a staff member escorts the visitor.", Disagree},
		{"Refunds are issued within 14 days unless the order was marked as fraud.", "Refunds within 14 days; the rule is suppressed for orders over 500 euros.", Disagree},
		{"Orders ship the same day except when they are placed after 3 pm.", "Same-day shipping; overridden when the order weighs more than 30 kg.", Disagree},
	})
}
