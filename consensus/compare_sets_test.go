package consensus

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// compareFigures are the answers of the position comparison alone on a
// meaning set: every question that wants consistent or conflict compared
// with its own record's position, whether or not the lookup finds it.
type compareFigures struct {
	consistent, conflict rate
	agreeConflict        int // agreeing rewordings answered conflict
	agreeUnclear         int // agreeing rewordings answered unclear
	changeUnclear        int // conflicts answered unclear
	misses               []string
	unexplained          []string // conflict or unclear answers without a difference
}

func compareSet(t testing.TB, file string) compareFigures {
	t.Helper()
	recs, cases := loadMeaning(t, file)
	byName := map[string]meaningRecord{}
	for _, r := range recs {
		byName[r.name] = r
	}
	var f compareFigures
	for _, c := range cases {
		r, ok := byName[c.record]
		if !ok || r.open || (c.want != "consistent" && c.want != "conflict") {
			continue
		}
		cmp := ComparePositionsOn(r.topic, voicePosition(r.position), voicePosition(c.position))
		got := string(statusOf(cmp.Agreement))
		if cmp.Agreement != Agree && len(cmp.Differences) == 0 {
			f.unexplained = append(f.unexplained, fmt.Sprintf("%s:%d", filepath.Base(file), c.line))
		}
		rt := &f.consistent
		if c.want == "conflict" {
			rt = &f.conflict
		}
		rt.of++
		if got == c.want {
			rt.ok++
			continue
		}
		switch {
		case c.want == "consistent" && got == "conflict":
			f.agreeConflict++
		case c.want == "consistent":
			f.agreeUnclear++
		default:
			f.changeUnclear++
		}
		f.misses = append(f.misses, fmt.Sprintf("%s:%d (%s): want %s, got %s %.2f %q\n      R: %s\n      Q: %s",
			filepath.Base(file), c.line, c.category, c.want, got, cmp.Score, cmp.Differences, r.position, c.position))
	}
	return f
}

// TestMeaningComparisonOnly prints, for every meaning set, how the
// position comparison alone answers (each question compared with its own
// record), apart from whether the lookup finds the record.
func TestMeaningComparisonOnly(t *testing.T) {
	files, _ := filepath.Glob("testdata/meaning/*.txt")
	sort.Strings(files)
	var all compareFigures
	for _, file := range files {
		f := compareSet(t, file)
		t.Logf("%-22s consistent %v, conflict %v; agreeing answered conflict %d, unclear %d; conflicts answered unclear %d",
			filepath.Base(file), f.consistent, f.conflict, f.agreeConflict, f.agreeUnclear, f.changeUnclear)
		all.consistent.ok += f.consistent.ok
		all.consistent.of += f.consistent.of
		all.conflict.ok += f.conflict.ok
		all.conflict.of += f.conflict.of
		all.agreeConflict += f.agreeConflict
		all.agreeUnclear += f.agreeUnclear
		all.changeUnclear += f.changeUnclear
		all.misses = append(all.misses, f.misses...)
		all.unexplained = append(all.unexplained, f.unexplained...)
	}
	// Every conflict and every unclear answer says why.
	if len(all.unexplained) > 0 {
		t.Errorf("answers without a difference: %v", all.unexplained)
	}
	t.Logf("%-22s consistent %v, conflict %v; agreeing answered conflict %d, unclear %d; conflicts answered unclear %d",
		"all", all.consistent, all.conflict, all.agreeConflict, all.agreeUnclear, all.changeUnclear)
	if os.Getenv("COMPARE_MISSES") != "" {
		for _, m := range all.misses {
			if strings.Contains(m, os.Getenv("COMPARE_MISSES")) || os.Getenv("COMPARE_MISSES") == "all" {
				t.Log(m)
			}
		}
	}
}
