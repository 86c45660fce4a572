package buildstamp

import (
	"bytes"
	"runtime/debug"
	"strings"
	"testing"

	gojson "github.com/goccy/go-json"
)

// sentinels wraps a record's text as the linker stores it: 16 bytes
// before and after, which ReadBuildInfo strips.
func sentinels(text string) string {
	const s = "0123456789abcdef"
	return s + text + s
}

// fromDebug is what the command makes of text: runtime/debug's reading,
// the settings taken in order (app.versionFrom does the same). ok is false
// when runtime/debug refuses the text.
func fromDebug(text string) (Info, bool) {
	bi, err := debug.ParseBuildInfo(text)
	if err != nil {
		return Info{}, false
	}
	i := New()
	i.SetVersion(bi.Main.Version)
	for _, s := range bi.Settings {
		i.Set(s.Key, s.Value)
	}
	return i, true
}

// agreeWithDebug fails t unless FromRecord reads text as runtime/debug
// does, or refuses it where runtime/debug does: a record it reads that
// runtime/debug refuses, or reads otherwise, would make the fast path say
// something the command does not.
func agreeWithDebug(t *testing.T, text string) {
	t.Helper()
	got, ok := FromRecord(sentinels(text))
	want, wantOK := fromDebug(text)
	if ok != wantOK || got != want {
		t.Fatalf("record %q:\nFromRecord:     %+v, %v\nruntime/debug:  %+v, %v", text, got, ok, want, wantOK)
	}
}

var records = []string{
	"",
	"path\tgithub.com/parleyhq/parley/cmd/parley\nmod\tgithub.com/parleyhq/parley\t(devel)\t\nbuild\t-buildmode=exe\nbuild\tCGO_ENABLED=1\n",
	"path\tx\nmod\tgithub.com/parleyhq/parley\tv1.4.2\th1:abc=\ndep\tgolang.org/x/sys\tv0.1.0\th1:x=\n=>\t../sys\t(devel)\t\n" +
		"build\t-ldflags=\"-s -w -X github.com/parleyhq/parley/internal/buildstamp.Override=v9\"\nbuild\tCGO_ENABLED=0\n" +
		"build\tvcs=git\nbuild\tvcs.revision=0123456789abcdef0123456789abcdef01234567\nbuild\tvcs.time=2026-11-30T16:27:06Z\nbuild\tvcs.modified=true\n",
	// Later settings replace earlier ones; an empty value is a value.
	"mod\tm\tv1\nbuild\tvcs.revision=aaa\nbuild\tvcs.revision=\nbuild\tvcs.time=t\nbuild\tvcs.modified=false\n",
	// Quoted keys and values, as the toolchain writes those that need it.
	"mod\tm\tv1\nbuild\t\"vcs.revision\"=\"a b\"\nbuild\t`vcs.time`=`x\"y`\nbuild\tCGO_ENABLED=\"1\"\n",
	// What runtime/debug refuses: the fast path must leave it to the command.
	"mod\tm\n",
	"mod\tm\tv1\tsum\textra\n",
	"dep\ta\tv1\n=>\tb\tv2\n",
	"dep\ta\tv1\n=>\tb\tv2\t\n=>\tc\tv3\t\n",
	"=>\tb\tv2\t\n",
	"mod\tm\tv1\nbuild\t\n",
	"mod\tm\tv1\nbuild\t=x\n",
	"mod\tm\tv1\nbuild\tkey\n",
	"mod\tm\tv1\nbuild\tvcs.revision=a b\n",
	"mod\tm\tv1\nbuild\tvcs.revision=a\"b\n",
	"mod\tm\tv1\nbuild\tke y=1\n",
	"mod\tm\tv1\nbuild\t\"vcs.time\"x=1\n",
	"mod\tm\tv1\nbuild\t\"vcs.time\"\n",
	"mod\tm\tv1\nbuild\t\"vcs.time=1\n",
	"mod\tm\tv1\nbuild\tvcs.time=\"unterminated\n",
	"mod\tm\tv1\nbuild\tvcs.time=\"a\"b\n",
	// Lines it does not know are skipped; a last line without its newline
	// is not read at all.
	"mod\tm\tv1\nwhat\tever\nbuild\tvcs.revision=abc",
	"mod\tm\tv1\r\nbuild\tvcs.revision=abc\r\n",
	"mod\tm\tv1\nbuild\tvcs.revision=\xff\xfe\n",
	"mod\tm\tv1\nbuild\tvcs.revision=\u00a0x\n",
	"mod\t\t\nmod\tm2\tv2\t\n",
}

func TestFromRecordAsRuntimeDebug(t *testing.T) {
	t.Parallel()
	refused := 0
	for _, text := range records {
		agreeWithDebug(t, text)
		if _, err := debug.ParseBuildInfo(text); err != nil {
			refused++
		}
	}
	if refused < 10 {
		t.Fatalf("runtime/debug refuses only %d of the records: the table no longer tries the refusals", refused)
	}
	// Too short to hold the sentinels: no record, as ReadBuildInfo says.
	for _, s := range []string{"", "short", strings.Repeat("x", 31)} {
		if _, ok := FromRecord(s); ok {
			t.Errorf("FromRecord(%q) read a record", s)
		}
	}
}

func FuzzFromRecord(f *testing.F) {
	for _, text := range records {
		f.Add(text)
	}
	f.Fuzz(agreeWithDebug)
}

// The JSON form is the bytes the command's encoder writes for it.
func TestAppendJSONAsTheCommandsEncoder(t *testing.T) {
	t.Parallel()
	for _, i := range []Info{
		{},
		New(),
		{Version: "v1.2.3", Revision: "0123abc", Time: "2026-11-30T16:27:06Z", Modified: true, Go: "go1.26.8", Cgo: true},
		{Version: "v9-\"q\"<&>\u2028", Revision: "\x00\x1b[31m", Time: "\xff", Go: "go1.27rc1 X:nocoverageredesign"},
	} {
		assertJSON(t, i)
	}
}

func FuzzAppendJSON(f *testing.F) {
	f.Add("v1", "abc", "t", true, "go1", false)
	f.Fuzz(func(t *testing.T, version, revision, when string, modified bool, goVersion string, cgo bool) {
		assertJSON(t, Info{Version: version, Revision: revision, Time: when, Modified: modified, Go: goVersion, Cgo: cgo})
	})
}

func assertJSON(t *testing.T, i Info) {
	t.Helper()
	want, err := gojson.Marshal(i)
	if err != nil {
		t.Fatal(err)
	}
	if got := i.AppendJSON(nil); !bytes.Equal(got, want) {
		t.Fatalf("%+v:\nAppendJSON %s\nencoder    %s", i, got, want)
	}
}
