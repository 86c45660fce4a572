package consensus

import "testing"

// TestBritishSpellingReadsAsAmerican: both spellings of a word are one
// word to the lookup, and a word spelt alike everywhere is left as it is.
func TestBritishSpellingReadsAsAmerican(t *testing.T) {
	for _, p := range [][2]string{
		{"cancelled", "canceled"}, {"travelling", "traveling"}, {"labelled", "labeled"}, {"modelling", "modeling"},
		{"fuelled", "fueled"}, {"traveller", "traveler"}, {"centre", "center"}, {"centres", "centers"}, {"fibre", "fiber"},
		{"catalogue", "catalog"}, {"dialogues", "dialogs"}, {"programme", "program"}, {"analyse", "analyze"},
		{"analysed", "analyzed"}, {"licence", "license"}, {"defence", "defense"}, {"tyres", "tires"},
		{"enrolment", "enrollment"}, {"judgement", "judgment"}, {"organisation", "organization"}, {"colour", "color"},
	} {
		if a, b := stem(p[0]), stem(p[1]); a != b {
			t.Errorf("stem(%q) = %q, stem(%q) = %q: want one", p[0], a, p[1], b)
		}
	}
	// Words whose root keeps both l, and words that only look British.
	for _, p := range [][2]string{{"upselling", "upsell"}, {"retelling", "retell"}, {"spelled", "spell"}, {"yelled", "yell"}, {"compelled", "compel"}} {
		if a, b := stem(p[0]), stem(p[1]); a != b {
			t.Errorf("stem(%q) = %q, stem(%q) = %q: want one", p[0], a, p[1], b)
		}
	}
	for _, p := range [][2]string{{"seller", "sell"}, {"genre", "gener"}, {"acre", "acer"}} {
		if p[0] == "seller" {
			if stem(p[0]) == "seler" {
				t.Errorf("stem(seller) lost an l")
			}
			continue
		}
		if stem(p[0]) == stem(p[1]) {
			t.Errorf("stem(%q) = stem(%q) = %q", p[0], p[1], stem(p[0]))
		}
	}
	if got := TopicScore("Licence renewal for the analytics centre", "License renewal for the analytics center"); got < 0.99 {
		t.Errorf("British and American topics score %.2f", got)
	}
}

// TestBritishWordsReadAsAmerican: the words British English uses for
// things American English names otherwise are one word to the lookup.
func TestBritishWordsReadAsAmerican(t *testing.T) {
	for _, p := range [][2]string{
		{"Lorry loading bays at the depot", "Truck loading bays at the depot"},
		{"Windscreen replacement claims", "Windshield replacement claims"},
		{"Glasshouse ventilation", "Greenhouse ventilation"},
		{"Car park barrier opening hours", "Parking lot barrier opening hours"},
		{"Postcode lookup at checkout", "ZIP code lookup at checkout"},
		{"Bank holiday rota", "Public holiday rota"},
	} {
		if got := TopicScore(p[0], p[1]); got < 0.99 {
			t.Errorf("TopicScore(%q, %q) = %.2f, want the same topic", p[0], p[1], got)
		}
	}
	c := ComparePositions("Fleet vans are refuelled with petrol only at the depot pump.", "Company vans only ever get gasoline from the depot pump.")
	if c.Agreement == Disagree {
		t.Errorf("petrol against gasoline: %v %q", c.Agreement, c.Differences)
	}
}
