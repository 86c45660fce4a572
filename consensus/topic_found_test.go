package consensus

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/debate"
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

// runFound files the records of file into a fresh vault and asks every
// question, counting which found their record.
func runFound(t *testing.T, file string) foundFigures {
	t.Helper()
	ctx := context.Background()
	e := newEnv(t)
	recs, cases := loadMeaning(t, file)
	names, topics := map[string]string{}, map[string]string{}
	for i, r := range recs {
		id := fmt.Sprintf("20261130-%s-m%05d-abcdef", r.layer, i)
		o := outcome(id, r.topic, r.layer, debate.ConsensusReached, false)
		if r.open {
			o = outcome(id, r.topic, r.layer, debate.Deadlock, false)
		} else {
			o.FinalPosition, o.FinalPositionHash = r.position, debate.PositionHash(r.position)
		}
		p := e.file(t, o)
		names[r.name] = strings.TrimSuffix(strings.TrimPrefix(p, Folder+"/"), ".md")
		topics[r.name] = r.topic
	}
	var f foundFigures
	for _, c := range cases {
		res, err := e.s.Check(ctx, c.layer, c.topic, c.position)
		if err != nil {
			t.Fatalf("line %d: %v", c.line, err)
		}
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
	verbose := os.Getenv("PARLEY_FOUND_MISSES") != ""
	for _, file := range files {
		f := runFound(t, file)
		t.Logf("%-18s reworded found %v (conflicts %v), same topic found %v, none kept %v",
			filepath.Base(file), f.reworded, f.rewordedConflict, f.same, f.noneKept)
		if verbose {
			for _, m := range f.misses {
				t.Logf("  miss: %s", m)
			}
		}
	}
}

// TestMeaningTopics9 runs the ninth topics set: questions asked in other
// words in subject areas of their own, most conflicts written from
// scratch, written before the round that tuned on it.
func TestMeaningTopics9(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/topics9.txt")
	f.log(t, "ninth (topics) set")
}

// TestMeaningTopics9Check runs the check set written with topics9.txt and
// kept out of view while the round's changes were made.
func TestMeaningTopics9Check(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/topics9-check.txt")
	f.log(t, "ninth (topics) check set")
}
