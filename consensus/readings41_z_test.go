package consensus

import "testing"

// TestScopeOpenedOrClosing: a case a position narrows its rule to in a
// phrase the filed rule never says, the rest of the rule said again in
// its words, is a condition added: a phrase that opens the sentence and
// ends at a comma ("For datasets funded by UKRI, …", "On night shifts,
// …"), or one that closes a clause ("… within 14 days for customers on
// the premium plan"). A case the filed rule opens with that the position
// leaves out, the rest said again, is a condition dropped. The same case
// in other words or in another place, a phrase that frames the saying,
// one said of every thing, and a thank-you are no change.
func TestScopeOpenedOrClosing(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"opening case in an email", "Parcel returns", "Customers may return any parcel within 30 days for a full refund.",
			"For orders shipped abroad, customers may return the parcel within 30 days for a full refund.", Disagree, "condition added: For orders shipped abroad"},
		{"opening case, terse", "Overtime pay", "Overtime is paid at 1.5 times the hourly rate.",
			"On night shifts, overtime is paid at 1.5x the hourly rate.", Disagree, "condition added: On night shifts"},
		{"opening case of a kind of the filed thing", "Guest wifi", "Guests get free wifi for the whole stay.",
			"For suite guests, wifi is free for the whole stay.", Disagree, "condition added: For suite guests"},
		{"opening case after a label", "Lab coats", "Lab coats are worn in the lab at all times.",
			"pls note: in the chemistry lab, lab coats are worn at all times", Disagree, "condition added: in the chemistry lab"},
		{"opening case, legal voice", "Tenancy deposits", "The landlord returns the deposit within 10 days of the end of the tenancy.",
			"For furnished flats, the landlord shall return the deposit within ten days after the tenancy ends.", Disagree, "condition added: For furnished flats"},
		{"closing case", "Refund window", "Refunds are issued within 14 days of the return.",
			"Refunds are issued within 14 days of the return for customers on the premium plan.", Disagree, "condition added: for customers on the premium plan"},
		{"closing case before another clause", "Tractor speed", "Tractors towing loaded trailers on public roads must not exceed 20 mph, and the beacon must be on whenever the tractor is on the road.",
			"Tractors towing loaded trailers shall not exceed 20 mph within the village limits, and the beacon shall be on at all times on the public road.", Disagree, "condition added: within the village limits"},
		{"opening case left out", "Night heating", "For the east wing offices, thermostats are set to 16 °C at night and 20 °C by day.",
			"Thermostats are set to 16 °C at night and 20 °C by day.", Disagree, "condition dropped: For the east wing offices"},

		{"the same case said later", "Parcel returns", "For orders shipped abroad, customers may return the parcel within 30 days for a full refund.",
			"Customers may return parcels shipped abroad within 30 days and get a full refund.", Agree, ""},
		{"the same case moved to the front", "Gym opening", "On bank holidays the gym opens at 6 am and closes at 10 pm.",
			"The gym opens at 6am and closes at 10pm on bank holidays.", Agree, ""},
		{"every thing", "Server patching", "Security patches are applied to every production server within 48 hours of release.",
			"For every production server, security patches are applied within 48 hours of release.", Agree, ""},
		{"the filed words in front", "Tenancy deposits", "The landlord returns the deposit within 10 days of the end of the tenancy.",
			"At the end of the tenancy, the landlord returns the deposit within 10 days.", Agree, ""},
		{"the thing named in front", "Sample storage", "Blood samples are stored at 4 °C and tested within 24 hours.",
			"For blood samples, storage is at 4 °C and testing within 24 hours.", Agree, ""},
		{"a number in front", "Leave approval", "Leave longer than 5 days needs the manager's approval.",
			"For leave of more than 5 days, the manager has to approve.", Agree, ""},
		{"a framing phrase", "Lab coats", "Lab coats are worn in the lab at all times.",
			"In general, lab coats are worn in the lab at all times.", Agree, ""},
		{"a thank-you", "Contact", "Customers get a reply within 2 working days.",
			"Thanks for reaching out, customers get a reply within 2 working days.", Agree, ""},
		{"the same kind moved to the end", "Refund window", "Refunds for premium customers are issued within 14 days.",
			"Refunds are issued within 14 days for premium customers.", Agree, ""},
		{"a terse answer to the filed case", "Night heating", "At night, office thermostats are set to 16 °C.",
			"16 °C", Agree, ""},
	})
}
