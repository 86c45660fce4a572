package consensus

import "testing"

// TestNoneBoundedBySubject: "no dog over 25 kg is allowed in the cabin",
// "nobody under 16 may use the lathe": the bound says which dogs or which
// people, and the "no" is said of what they do, as "dogs over 25 kg are
// not allowed" says it. Another number, the other bound or the rule
// turned is still a change; a bound said of a thing alone ("no parcel
// over 30 kg") keeps its reading as a limit.
func TestNoneBoundedBySubject(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Dogs over 25 kg are not allowed in the cabin.", "No dog over 25 kg is allowed in the cabin.", Agree},
		{"Dogs over 25 kg are not allowed in the cabin.", "No dog over 25 kg may travel in the cabin.", Agree},
		{"Members under 16 must not use the lathe.", "Nobody under 16 may use the lathe.", Agree},
		{"Members under 16 must not use the lathe.", "No member under 16 is to use the lathe.", Agree},
		{"Loans above 5000 euros are not approved by branch staff.", "No loan above 5000 euros is approved by branch staff.", Agree},
		{"Boats longer than 12 metres are not admitted to the inner harbour.", "No boat longer than 12 metres is admitted to the inner harbour.", Agree},
		{"Parcels under the weight limit are not charged a surcharge.", "No parcel under the weight limit is charged a surcharge.", Agree},

		{"Dogs over 25 kg are not allowed in the cabin.", "No dog over 30 kg is allowed in the cabin.", Disagree},
		{"Dogs over 25 kg are not allowed in the cabin.", "No dog under 25 kg is allowed in the cabin.", Disagree},
		{"Dogs over 25 kg are not allowed in the cabin.", "Dogs over 25 kg are allowed in the cabin.", Disagree},
		{"Members under 16 must not use the lathe.", "Nobody under 18 may use the lathe.", Disagree},
		{"Members under 16 must not use the lathe.", "Nobody over 16 may use the lathe.", Disagree},
		// A bound said of a thing alone is a limit: every loaf at least 400 g.
		{"Every loaf must weigh at least 400 g.", "No loaf under 400 g.", Agree},
	})
}
