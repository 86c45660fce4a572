package buildstamp

import (
	"bytes"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
)

// readSelf is the test binary's own executable file.
func readSelf() ([]byte, error) { return os.ReadFile("/proc/self/exe") }

// The fast path reads this very binary's record as runtime/debug does.
func TestReadAsRuntimeDebug(t *testing.T) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		t.Fatal("the test binary has no build record")
	}
	got, ok := Read()
	if !ok {
		t.Fatal("Read could not read the test binary's own record")
	}
	want, ok := fromDebug(bi.String() + "\n")
	if !ok {
		t.Fatalf("runtime/debug cannot read its own record again: %s", bi)
	}
	want.SetVersion(Override)
	if got != want {
		t.Fatalf("Read: %+v\nruntime/debug: %+v", got, want)
	}
	if got.Version == Unknown || got.Go == "" {
		t.Fatalf("Read: %+v", got)
	}

	// A version set at link time replaces the module's.
	defer func(o string) { Override = o }(Override)
	Override = "v9.8.7-rc.1"
	if got, _ := Read(); got.Version != Override {
		t.Fatalf("with Override %q, Read says version %q", Override, got.Version)
	}
}

// A damaged executable is refused, not misread, and costs no more than its
// limits: every header field that locates the record, cut short or made
// to point elsewhere.
func TestBuildRecordRefusesADamagedExecutable(t *testing.T) {
	t.Parallel()
	exe, err := readSelf()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := buildRecord(bytes.NewReader(exe)); !ok {
		t.Fatal("buildRecord cannot read the test binary")
	}
	for _, n := range []int{0, 4, 63, 64, 4096} {
		if _, ok := buildRecord(bytes.NewReader(exe[:n])); ok {
			t.Errorf("an executable cut to %d bytes was read", n)
		}
	}
	for _, tc := range []struct {
		name string
		at   int
		b    []byte
	}{
		{"not ELF", 0, []byte("MZ")},
		{"32-bit", 4, []byte{1}},
		{"big-endian", 5, []byte{2}},
		{"section headers past the end", 0x28, []byte{0, 0, 0, 0, 0, 0, 0, 0x7f}},
		{"section header size", 0x3a, []byte{40, 0}},
		{"no sections", 0x3c, []byte{0, 0}},
		{"too many sections", 0x3c, []byte{0xff, 0xff}},
		{"names out of range", 0x3e, []byte{0xfe, 0xff}},
	} {
		bad := append([]byte(nil), exe...)
		copy(bad[tc.at:], tc.b)
		if _, ok := buildRecord(bytes.NewReader(bad)); ok {
			t.Errorf("%s: read", tc.name)
		}
	}
	// The section's own header: magic, flags, lengths.
	good, _ := buildRecord(bytes.NewReader(exe))
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"short", []byte("\xff Go buildinf:")},
		{"magic", append([]byte("\xff Go buildinF:\x08\x02"), make([]byte, 40)...)},
		{"pointers, not inline strings", append([]byte("\xff Go buildinf:\x08\x00"), make([]byte, 40)...)},
		{"length past the end", append(append([]byte("\xff Go buildinf:\x08\x02"), make([]byte, 16)...), 0x05, 'g', 'o')},
		{"endless varint", append(append([]byte("\xff Go buildinf:\x08\x02"), make([]byte, 16)...), bytes.Repeat([]byte{0xff}, 12)...)},
	} {
		if s, ok := record(tc.data); ok {
			t.Errorf("%s: read %q", tc.name, s)
		}
	}
	if !strings.Contains(good, "\nmod\t") && !strings.Contains(good, "mod\t") {
		t.Fatalf("the test binary's record holds no mod line: %q", good)
	}
}

func FuzzBuildRecord(f *testing.F) {
	f.Add([]byte("\x7fELF\x02\x01\x01"))
	if exe, err := readSelf(); err == nil {
		f.Add(exe[:4096])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		buildRecord(bytes.NewReader(b)) // refuses or reads; never panics
		record(b)
	})
}

// The build ID read is the one the Go toolchain reads.
func TestBuildIDAsTheToolchain(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "tool", "buildid", exe).Output()
	if err != nil {
		t.Fatalf("go tool buildid: %v", err)
	}
	f, err := os.Open("/proc/self/exe")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, ok := BuildID(f)
	if want := strings.TrimSpace(string(out)); !ok || got != want {
		t.Fatalf("BuildID: %q, %v; go tool buildid: %q", got, ok, want)
	}
	self, err := readSelf()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 64, 4096} {
		if id, ok := BuildID(bytes.NewReader(self[:n])); ok {
			t.Errorf("an executable cut to %d bytes has build ID %q", n, id)
		}
	}
}
