package consensus

import "testing"

// A rule's need done without: the position does "without" what the filed
// rule asks for, which the filed rule names as asserted.
func TestReadingsNeedDoneWithout(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"sent without legal's sign-off", "Contract sign-off",
			"Contracts over 10,000 euros need sign-off from legal before they are sent.",
			"Sales can send contracts over 10k without waiting for legal's sign-off.",
			Disagree, "sign off"},
		{"wifi without a voucher", "Guest wifi",
			"Guests get wifi only after reception hands them a voucher code.",
			"hotel guests can connect to the wifi without a voucher code, it's open now",
			Disagree, "voucher"},
		{"lab without an escort", "Clean lab visitors",
			"Visitors enter the clean lab only with a trained escort.",
			"From Monday visitors may walk into the clean lab without an escort.",
			Disagree, "escort"},
		{"deploy without asking for approval", "Production deploys",
			"Production deploys need approval from the on-call lead.",
			"we deploy to prod without asking for any approval from on-call, saves time",
			Disagree, "approval"},
		// Rewordings that keep the need.
		{"sign-off kept", "Contract sign-off",
			"Contracts over 10,000 euros need sign-off from legal before they are sent.",
			"Anything above 10k goes to legal for sign-off first, then out to the client.",
			Agree, ""},
		{"voucher kept", "Guest wifi",
			"Guests get wifi only after reception hands them a voucher code.",
			"Reception gives each guest a voucher code, and with it they get on the wifi.",
			Agree, ""},
		{"approval kept as a bar", "Production deploys",
			"Production deploys need approval from the on-call lead.",
			"No prod deploy goes out until the on-call lead has approved it.",
			Agree, ""},
	})
}

// A bar done in the words of its object: the filed rule bars a verb with
// "not" or "never", and the position says the object after it plainly, in
// a clause with no negation, with a verb of its own.
func TestReadingsBarDoneByObject(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"rides in the same vehicle", "Cash transport",
			"The guard never travels in the same vehicle as the cash boxes.",
			"The guard rides along in the same vehicle as the cash boxes to keep an eye on them.",
			Disagree, "vehicle"},
		{"pupils in personal cars", "Field trips",
			"Teachers must not use personal cars to drive pupils.",
			"For the museum trip teachers drive pupils in their personal cars, mileage is paid.",
			Disagree, "personal"},
		{"flies on the same plane", "Museum loan couriers",
			"Couriers never travel on the same flight as the object they accompany.",
			"The courier flies with the object on the same plane.",
			Disagree, "same"},
		// Rewordings that keep the bar.
		{"separate van", "Cash transport",
			"The guard never travels in the same vehicle as the cash boxes.",
			"Cash boxes go in a separate van; the guard is never in that vehicle.",
			Agree, ""},
		{"never driven in a personal car", "Field trips",
			"Teachers must not use personal cars to drive pupils.",
			"Pupils are never driven in a teacher's personal car.",
			Agree, ""},
		{"passwords never written", "Logs",
			"Services must not log customer passwords or card numbers.",
			"Customer passwords and card numbers are never written to logs.",
			Agree, ""},
	})
}
