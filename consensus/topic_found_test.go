package consensus

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/consensus/consensustest"
)

// foundFigures say how often a set's questions find their record,
// whatever the comparison of the positions then answers.
type foundFigures struct {
	// reworded: questions that should find a record and whose topic is
	// not the record's (another slug), found; same: those asked with the
	// record's own topic. noneKept: questions that should find none (a
	// near miss, another layer) that found no record.
	reworded, same, noneKept rate
	// rewordedConflict: the reworded questions whose position conflicts
	// with the record, found.
	rewordedConflict rate
	misses           []string
}

// runFound counts which of the questions of file found their record, in
// a vault of the set's own records (checkSet).
func runFound(t *testing.T, file string) foundFigures {
	t.Helper()
	set := checkSet(t, file)
	names, topics := set.names, map[string]string{}
	for _, r := range set.recs {
		topics[r.name] = r.topic
	}
	var f foundFigures
	for i, c := range set.cases {
		res := set.answers[i]
		got := ""
		if res.Record != nil {
			got = res.Record.Name
		}
		if c.want == "none" {
			f.noneKept.of++
			if got == "" {
				f.noneKept.ok++
			} else {
				f.misses = append(f.misses, fmt.Sprintf("line %d (%s): found %s (topic score %.2f), want none", c.line, c.category, got, res.TopicScore))
			}
			continue
		}
		r := &f.same
		if TopicSlug(c.topic) != TopicSlug(topics[c.record]) {
			r = &f.reworded
			if c.want == "conflict" {
				f.rewordedConflict.of++
				if got == names[c.record] {
					f.rewordedConflict.ok++
				}
			}
		}
		r.of++
		if got == names[c.record] {
			r.ok++
		} else {
			f.misses = append(f.misses, fmt.Sprintf("line %d (%s, %s): found %q (topic score %.2f)", c.line, c.category, c.want, got, res.TopicScore))
		}
	}
	return f
}

// TestTopicFound: on every meaning set, the share of the questions asked
// in other words that find their record and of the near misses kept out.
// The floors are the figures measured when the position's distinctive
// terms became evidence (see docs/consensus.md); near misses kept out
// never fall.
func TestTopicFound(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/meaning/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no meaning sets: %v", err)
	}
	// The floors: reworded questions found and near misses kept out, as
	// measured when the position's distinctive terms became evidence (see
	// docs/consensus.md for the figures before).
	// Raised where questions asked in words of their own were found
	// (rewordedQuestion), with the sets written after: sealed 8 and 9,
	// the agents' sets and voices 11. Lowered by one each for topics 9
	// and the agents' check set when a record found only near in topic
	// whose position shares little with the question's stopped answering
	// it (strayTopic): "junior subs" at 80 EUR a season, and an agent's
	// "fix(auth): password hashing" that switches to bcrypt, rewritten
	// whole; 28 near misses are kept out for them.
	floors := map[string][2]int{
		"check7.txt": {9, 17}, "heldout.txt": {20, 12}, "sealed.txt": {32, 22}, "sealed2.txt": {22, 19},
		"sealed3.txt": {17, 18}, "sealed4.txt": {15, 17}, "sealed5.txt": {16, 14}, "sealed6.txt": {16, 12},
		"sealed7.txt": {54, 36}, "topics7-check.txt": {21, 15}, "topics7.txt": {65, 41}, "topics8.txt": {33, 17},
		"topics9-check.txt": {14, 8}, "topics9.txt": {22, 13}, "tune.txt": {45, 23}, "tune7.txt": {11, 32},
		"sealed8.txt": {67, 36}, "sealed9.txt": {65, 34}, "agents10.txt": {70, 20}, "agents10-check.txt": {16, 5},
		"voices11.txt": {31, 14}, "sealed10.txt": {61, 31}, "sealed11.txt": {72, 33},
		"sealed22.txt": {75, 30}, "sealed23.txt": {84, 33}, "sealed24.txt": {83, 30}, "sealed25.txt": {84, 35},
		"sealed26.txt": {80, 33}, "sealed27.txt": {83, 35}, "sealed28.txt": {86, 34}, "sealed29.txt": {82, 34},
	}
	verbose := os.Getenv("PARLEY_FOUND_MISSES") != ""
	for _, file := range files {
		f := runFound(t, file)
		name := filepath.Base(file)
		t.Logf("%-18s reworded found %v (conflicts %v), same topic found %v, none kept %v",
			name, f.reworded, f.rewordedConflict, f.same, f.noneKept)
		if verbose {
			for _, m := range f.misses {
				t.Logf("  miss: %s", m)
			}
		}
		if fl, ok := floors[name]; ok && (f.reworded.ok < fl[0] || f.noneKept.ok < fl[1]) {
			t.Errorf("%s: reworded found %v (floor %d), none kept %v (floor %d)", name, f.reworded, fl[0], f.noneKept, fl[1])
		}
		if f.same.ok != f.same.of {
			t.Errorf("%s: a question asked with its record's own topic not found: %v", name, f.same)
		}
	}
}

// TestTopicFoundInOneVault files the records of every meaning set into
// one vault beside generated ones (many subject areas, so that the words
// of one set's records are near misses of another's questions) and asks
// every set's questions there: the questions asked in other words find
// their record about as often as in a vault of their own, and no question
// that should find none finds one.
func TestTopicFoundInOneVault(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("files every set's records")
	}
	ctx := context.Background()
	files, err := filepath.Glob("testdata/meaning/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no meaning sets: %v", err)
	}
	// Sealed 8 and 9 were written apart from every other set, on the day
	// the agents' sets were, and ask some of the same questions in other
	// words (seat holds at checkout, branch naming, upload size limits,
	// extracting UI strings): in one vault, their "another record" is
	// mostly the same question filed twice. Each is measured in a vault
	// of its own (TestMeaningSealed8, TestMeaningSealed9).
	files = slices.DeleteFunc(files, func(f string) bool {
		return strings.HasSuffix(f, "/sealed8.txt") || strings.HasSuffix(f, "/sealed9.txt")
	})
	e := newEnv(t)
	outs, _ := consensustest.Outcomes(3000, 14)
	type question struct {
		meaningCase
		name, recTopic string
		set            map[string]bool // the slugs of the set's records
	}
	var qs []question
	seen := map[string]bool{}
	for fi, file := range files {
		recs, cases := loadMeaning(t, file)
		names, topics, slugs := map[string]string{}, map[string]string{}, map[string]bool{}
		for i, r := range recs {
			slugs[TopicSlug(r.topic)] = true
			key := string(r.layer) + "/" + TopicSlug(r.topic)
			if seen[key] {
				continue // the same question in two sets: asked of the first only
			}
			seen[key] = true
			outs = append(outs, meaningOutcome(fmt.Sprintf("20261130-%s-f%02dm%04d-abcdef", r.layer, fi, i), r))
			names[r.name] = TopicSlug(r.topic)
			topics[r.name] = r.topic
		}
		for _, c := range cases {
			if n, ok := names[c.record]; ok || c.want == "none" {
				qs = append(qs, question{c, n, topics[c.record], slugs})
			}
		}
	}
	if _, err := e.s.Import(ctx, outs); err != nil {
		t.Fatal(err)
	}
	var reworded, noneKept, wrong rate
	for _, q := range qs {
		res, err := e.s.Check(ctx, q.layer, q.topic, q.position)
		if err != nil {
			t.Fatal(err)
		}
		if q.want == "none" {
			// Another set may hold the very question asked: a miss is a
			// record of the question's own set.
			noneKept.of++
			if res.Record == nil || !q.set[res.Record.Slug] {
				noneKept.ok++
			} else {
				t.Logf("line %d (%s): %q found %s (topic score %.2f)", q.line, q.category, q.topic, res.Record.Name, res.TopicScore)
			}
			continue
		}
		if TopicSlug(q.topic) == TopicSlug(q.recTopic) {
			continue
		}
		reworded.of++
		wrong.of++
		switch {
		case res.Record == nil:
		case res.Record.Slug == q.name:
			reworded.ok++
		default:
			wrong.ok++
			t.Logf("line %d (%s): %q found %s (topic score %.2f), want %s", q.line, q.category, q.topic, res.Record.Name, res.TopicScore, q.name)
		}
	}
	t.Logf("%d records: reworded found %v, another record found %v, none kept %v", len(outs), reworded, wrong, noneKept)
	// Measured when the position's distinctive terms became evidence and
	// a record found by the position needed a margin over the others:
	// 396/440 found (355 before), 2 another record (4 before), 316/325
	// near misses kept out (316 before). With the sets added since, and
	// questions asked in words of their own found (rewordedQuestion):
	// 475/530 before it, 486/530 with it, 2 another record and 341/350
	// near misses kept out either way; with voices11.txt beside them
	// and the changes after it: 515/569, 2, 355/364. With every set since
	// (sealed 10 and 11 among them): 636/767, 2, 422/439; with the bridge
	// and bridge13.txt: 655/777, 3, 428/444 (the third: "Q: which origins
	// can call the public API?", asked of "CORS policy of the public API",
	// finds another set's "Allowed CORS origins for the public API" once
	// its "Q:" label is read as one); with "settings", "tuning",
	// "lifecycle" and "knob" generic words: 656/777, 3, 428/444; with
	// clipped words read whole ("regen": regeneration): 657/777, 3,
	// 428/444; with the comparison's round and sealed 12 and 13 in the
	// vault: 813/1004, 3, 497/516; with sealed 14 and 15 beside them
	// and the comparison's second round: 980/1231, 4, 564/588 (the
	// fourth: sealed 14's "KYC-411 expired document handling" finds
	// sealed 11's "Expired driver documents", which it fits as well).
	// With sealed 16 to 19 beside them (and the comparison's fourth
	// round): 1227/1641, 6, 695/732. The two more find another set's
	// record of a neighbouring question: sealed 17's "How long does a
	// patron get to borrow an e-book hold once it's ready?" finds
	// "E-book loan period", and sealed 6's "Can we deploy to prod during
	// the holidays?" now finds "Production deploy window", the new
	// records having made its words rarer or commoner. With sealed 20 and
	// 21 beside them: 1345/1849, 7, 762/804 (the seventh: topics 9's
	// "what do we require before lending a painting to another
	// museum?" finds sealed 20's "Relative humidity in the
	// paintings galleries"). With sealed 22 to 25 beside them and the
	// comparison's fifth round (money, configuration fragments, bounds):
	// 1659/2260, 6, 892/948. Found by the record's numbers told in words
	// of its own too (numbersTold): 1681/2260, 6, 892/948. With sealed 26
	// to 29 beside them: 1984/2666, 12, 1030/1092. Their writers were given
	// domains that earlier sets had used (balloon flights, dog grooming,
	// hot desks, carbon credits), and four of the six new "another record"
	// answers find an earlier set's record of much the same question
	// ("Surface wind limit for passenger balloon launches" for "… for
	// launching"): two vaults' worth of one rule. With sealed 30 to 33
	// beside them and the seventh round: 2314/3070, 16, 1171/1236. Of the
	// five new "another record" answers, three find an earlier set's
	// record of much the same question ("Spore testing of nail salon
	// autoclaves" and "Monthly autoclave spore test", a sesame line clean
	// down, receipts for club expense claims), one a neighbouring
	// question of parcel lockers, and "booking deposit rules" names
	// neither studio sessions nor wedding venues; sealed 20's painting
	// loan question no longer finds the galleries' humidity. With a
	// topic read whole against the record's (topicClash: "minimum" and
	// "maximum", "daily" and "weekly", "closing" and "opening"):
	// 2314/3070, 16, 1174/1236. With sealed 34 to 37 beside them and the
	// eighth round: 2522/3323, 27, 1299/1380. Their writers were not
	// given the domains already used, and the eleven new "another record"
	// answers each find an earlier set's record of much the same question
	// ("Audit of the visitor sign-in log" for "Monthly audit of …", studio
	// cancellations, xenon lamps, pawned items, call recordings, chapel
	// service slots, loose bakery goods, outgoing museum loans). With
	// sealed 38 and 39: 2647/3477, 27, 1364/1452. The ninth round leaves
	// those the same; with sealed 40 and 41 beside them: 2787/3624, 31,
	// 1426/1524. Of the four new "another record" answers, three find an
	// earlier set's record of much the same question (patch tests before
	// hair colour, twice; refunds for returned parcels), and one, an
	// earlier set's "Late teams policy (BOOK-57)" of escape rooms, finds
	// the restaurants' late cancellations. With sealed 42 and 43 too:
	// 2908/3755, 32, 1485/1596; the new "another record" answer is an
	// earlier set's "visitor berth length limits at your marina", which
	// finds a newer set's record of booking visitor berths. With sealed 44
	// and 45 too: 3043/3899, 33, 1547/1668; the new one finds a newer
	// set's record of much the same question (the running time of short
	// films in a competition). The tenth round leaves those at 3044/3899,
	// 33, 1547/1668; with sealed 46 to 49 beside them: 3297/4187, 34,
	// 1668/1812. The new "another record" answer finds an earlier set's
	// record of much the same question (what one bulky waste booking
	// covers). With sealed 50 to 53 too, the eleventh and twelfth rounds
	// measure 3548/4476, 33, 1795/1956 (the same on 3bd745e); with sealed
	// 54 to 57 beside them: 3811/4754, 36, 1926/2100. The three new
	// "another record" answers were not read (54 and 57 stay unread).
	// With sealed 58 to 61 beside them, the thirteenth round: 4089/5060,
	// 38, 2048/2244 (4087, 38 and 2048 on d45bbb8, before it); the two
	// new "another record" answers were not read either. With "how
	// often" asked of a rule that says a period (coverOf): 4092/5060, 39,
	// 2048/2244; the new one is sealed 36's "germination retest schedule
	// for accessions", which finds another set's "germination retest
	// interval for banked accessions": much the same question.
	// With a record found only near in topic (below strayTopic) and
	// sharing little with the question's position no longer the answer:
	// 4088/5060, 28, 2076/2244. The four reworded questions lost are
	// rewritten whole (two of them conflicts, now none); eleven fewer
	// find another record and 28 more near misses are kept out.
	// With sealed 62 and 63 beside them, written after the round and
	// never read: 4215/5209, 29, 2140/2316 (the new "another record"
	// answer not read either). With sealed 64 to 67 beside them, written
	// for the fourteenth round and never read: 4473/5497, 29, 2260/2460.
	// After the fifteenth round's readings of positions (a record's "plus
	// 10%" read with its number, no longer a word of the rule): 4477/5497,
	// 29, 2259/2460; the near miss now found is sealed 55's "how long
	// speed watch records are kept". With sealed 68 and 69 beside them,
	// written for that round and never read: 4663/5711, 31, 2329/2532.
	// With a question found by a position that restates the record's rule
	// while each side names its object in a word of its own (coverOf's
	// foreign mark), the sixteenth round: 4699/5711, 31, 2328/2532.
	// With "cut-off" read as a time limit, the seventeenth: 4701/5711,
	// 32, 2328/2532; the new "another record" answer is sealed 28's
	// "Vintage cut-off for the offsets we claim", which finds sealed 17's
	// "vintage limit for credits used in offsetting claims": much the
	// same question. With the related records of a check found by the
	// five rarest words of the question rather than three (relatedSearch),
	// the eighteenth round: 4754/5711, 33, 2326/2532: 53 more reworded
	// questions found (those whose three rarest words were in other
	// records: a greeting, a place name) for one more "another record"
	// and two more near misses found among the 5881 records. The
	// twentieth round ("in advance", a window counted back, the rule's
	// moment): 4756/5711, 33, 2326/2532. The twenty-first, a question
	// asked in words of its own found by a position that says much the
	// same as the record's (alikeSimilarity): 4794/5711, 33, 2326/2532;
	// and naming no word of its own that the record never names (namesOwn,
	// after a review found near misses it let through): 4790/5711, 33,
	// 2326/2532. With the review's own set beside them (review21, 57
	// records, 118 near misses among its questions): 4855/5824, 39,
	// 2432/2650: six more questions answered with another record, where
	// the new set's records and questions meet the other sets'. With the
	// forms of one word read as one ("ploughing" and "plough", "times"
	// and "time"): 4866/5824, 40, 2432/2650; the new "another record"
	// answer is "Plough call-out trigger", which now finds another set's
	// "Contractor call-out trigger for car park ploughing" rather than
	// its own "When ploughs are dispatched": a neighbouring question.
	// With an ordinal read as its number in a topic ("sixth form"):
	// 4867/5824, 40, 2432/2650.
	if reworded.ok < 4867 || wrong.ok > 40 || noneKept.ok < 2432 {
		t.Errorf("in one vault: reworded found %v (floor 4867), another record %v (at most 40), none kept %v (floor 2432)", reworded, wrong, noneKept)
	}
}

// TestMeaningTopics9 runs the ninth topics set: questions asked in other
// words in subject areas of their own, most conflicts written from
// scratch, written before the round that tuned on it.
func TestMeaningTopics9(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/topics9.txt")
	f.log(t, "ninth (topics) set")
	// Before the round: consistent 0.46 (6/13), conflict 0.19 (3/16),
	// none 1.00, paraphrases answered conflict 0.00; reworded questions
	// found 10/29. After it: 0.85 (11/13), 0.50 (8/16), 1.00, 0.00; found
	// 21/29. Guard against falling below that.
	f.guard(t, "ninth (topics)", "last measurement", 0.84, 0.50, 0.99, 0.01)
}

// TestMeaningTopics9Check runs the check set written with topics9.txt and
// kept out of view while the round's changes were made.
func TestMeaningTopics9Check(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/topics9-check.txt")
	f.log(t, "ninth (topics) check set")
	// Measured at the start of the round (summary line only): consistent
	// 0.38 (3/8), conflict 0.12 (1/8), none 1.00, paraphrases answered
	// conflict 0.12; reworded questions found 6/16. At its end: 0.50,
	// 0.38, 1.00, 0.12; found 9/16. Guard against falling below that.
	f.guard(t, "ninth (topics) check", "held-out measurement", 0.50, 0.37, 0.99, 0.13)
}
