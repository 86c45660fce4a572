package consensus

import "testing"

// TestComparePositionsSetAsideSaidOtherwise reads an option a position
// sets aside ("rather than pay", "instead of to the next reader") against
// the filed rule that states it in another form of the word, in a clause
// whose condition is turned ("if the tower is closed"), or with the last
// word of three said otherwise; and the positions that set aside what the
// filed rule itself leaves out, which agree.
func TestComparePositionsSetAsideSaidOtherwise(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"pay set aside against paid", "Payment for overtime", "Overtime is paid at 1.5 times the normal hourly rate.",
			"ok so overtime gets time off in lieu rather than pay, 1.5x the hours", Disagree, "pay"},
		{"pay set aside, said as giving a day off", "Compensation for on-call", "On-call weekends are compensated with pay at the standard rate.",
			"For on-call weekends we give a day off instead of paying them.", Disagree, "pay"},
		{"an app notification set aside against notified in the app", "Order confirmation", "Customers are notified in the app when the order ships.",
			"Customers get an SMS when the order ships, instead of an app notification.", Disagree, "app"},
		{"a refund set aside against a clause under a turned condition", "Refunds for cancelled boat trips",
			"Boat trip tickets are refunded in full if we close the harbour for storms.",
			"When the harbour is closed for storms, passengers get a voucher for another trip instead of a refund.", Disagree, "refund"},
		{"the next person waiting set aside against the next person on the list", "Pickup window for held games",
			"When a reserved board game comes back, the member has 2 days to collect it before it passes to the next person on the waiting list.",
			"Held games: member gets 2 days to collect; if they don't, the game goes back on the shelf instead of to the next person waiting.", Disagree, "next person"},
		{"a tag rather than a digest, said apart", "Pinning of base images",
			"Base images are pinned by digest; the latest tag is never used.",
			"Pin base images by version tag (like `:1.4`) rather than digest.", Disagree, "digest"},

		{"paid rather than time off, as filed", "Overtime", "Overtime is paid, not given as time off.",
			"Overtime: paid rather than time off in lieu.", Agree, ""},
		{"a day off set aside where the rule pays", "Compensation for on-call", "On-call weekends are compensated with pay at the standard rate.",
			"On-call weekends are paid at the standard rate rather than given as time off.", Agree, ""},
		{"cash set aside where the rule never pays cash", "Refund method", "Refunds are never paid out in cash; they go back to the original card.",
			"Refund goes back on the original card rather than being paid out in cash.", Agree, ""},
		{"a depot the rule does not name, under a turned condition", "Parcel delivery", "If the shop is closed, parcels are left with a neighbour.",
			"When the shop isn't open, the parcel goes to a neighbour rather than back to the depot.", Agree, ""},
		{"an in-app notification rather than an email", "Order confirmation", "Customers are notified in the app when the order ships.",
			"When an order ships the customer gets an in-app notification rather than an email.", Agree, ""},
		{"the shelves set aside where the rule passes it on", "Library holds", "A book not collected within 5 days goes to the next reader on the waiting list.",
			"After 5 days without pickup, the book is passed on to the next reader in line rather than back to the shelves.", Agree, ""},
		{"a voucher rather than cash where the rule gives a voucher", "Train delays", "If the train is not on time, passengers get a travel voucher.",
			"Late train = travel voucher for passengers, rather than a cash refund.", Agree, ""},
	})
}
