package consensus

import "testing"

// TestRefusalSaidAsNotItsOther: "rejected" is "not accepted", "disabled"
// "not enabled", "excluded" "not included", "forbidden" "not allowed",
// in a sentence otherwise the same. The word alone against its other
// ("rejected" → "accepted"), or the negation kept with the refusal
// ("not rejected"), still changes the rule.
func TestRefusalSaidAsNotItsOther(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Access requests without a manager's approval are rejected.", "An access request with no manager approval is not accepted.", Agree},
		{"Expense claims filed after 60 days are refused.", "Expense claims filed after 60 days are not accepted.", Agree},
		{"Late entries to the photo contest are declined.", "Late entries to the photo contest are not accepted.", Agree},
		{"Autoplay is disabled on the kiosk screens.", "Autoplay is not enabled on the kiosk screens.", Agree},
		{"Swimwear is forbidden in the bar after 6 pm.", "Swimwear is not allowed in the bar after 6 pm.", Agree},
		{"Dogs are forbidden in the dining room.", "Dogs are not permitted in the dining room.", Agree},
		{"Dogs are not allowed in the dining room.", "Dogs are forbidden in the dining room.", Agree},

		{"Access requests without a manager's approval are rejected.", "Access requests without a manager's approval are accepted.", Disagree},
		{"Access requests without a manager's approval are rejected.", "Access requests without a manager's approval are not rejected.", Disagree},
		{"Expense claims filed after 60 days are refused.", "Expense claims filed after 90 days are not accepted.", Disagree},
		{"Autoplay is disabled on the kiosk screens.", "Autoplay is enabled on the kiosk screens.", Disagree},
		{"Dogs are forbidden in the dining room.", "Dogs are permitted in the dining room.", Disagree},
		// The other option of a choice of more than two is no negation:
		// not WebP is not JPEG.
		{"Thumbnails are served as JPEG.", "Thumbnails are not served as WebP.", Disagree},
	})
}
