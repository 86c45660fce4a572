package consensus

import (
	"context"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/consensus/consensustest"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/vault"
)

// benchRecords is the vault size of the SPEC §11 bar.
const benchRecords = 10000

var (
	benchOnce     sync.Once
	benchDir      string
	benchOutcomes []*debate.Outcome
)

// noSync skips fsync: the benchmark vault is built fast; what is measured
// afterwards reads it.
type noSync struct{ durable.FS }

type noSyncFile struct{ durable.File }

func (noSyncFile) Sync() error { return nil }

func (f noSync) OpenFile(name string, flag int, perm fs.FileMode) (durable.File, error) {
	file, err := f.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return noSyncFile{file}, nil
}

// benchVault builds, once per process, a vault of benchRecords records and
// waits until it is out of the racy window.
func benchVault(b testing.TB) (root string, v *vault.Vault) {
	b.Helper()
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "parley-consensus-bench-")
		if err != nil {
			b.Fatal(err)
		}
		benchDir = dir
		gen, err := vault.Create(filepath.Join(dir, "vault"), vault.WithFS(func(f durable.FS) durable.FS { return noSync{f} }))
		if err != nil {
			b.Fatal(err)
		}
		s, err := Open(filepath.Join(dir, "root"), gen)
		if err != nil {
			b.Fatal(err)
		}
		benchOutcomes, _ = consensustest.Outcomes(benchRecords, 1)
		if _, err := s.Import(context.Background(), benchOutcomes); err != nil {
			b.Fatal(err)
		}
		s.Close()
		gen.Close()
		time.Sleep(RacyMargin)
	})
	v, err := vault.Open(filepath.Join(benchDir, "vault"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { v.Close() })
	return filepath.Join(benchDir, "root"), v
}

func TestMain(m *testing.M) {
	if arg := os.Getenv(helperEnv); arg != "" {
		os.Exit(checkProcess(arg))
	}
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

// BenchmarkColdBuild is a new Store without a cache reading every record
// and building the search index.
func BenchmarkColdBuild(b *testing.B) {
	root, v := benchVault(b)
	ctx := context.Background()
	for b.Loop() {
		os.Remove(filepath.Join(root, CacheFile))
		s, err := Open(root, v)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Check(ctx, debate.LayerSpec, "durable key policy", "store the key"); err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// BenchmarkCacheLoad is a new Store (a new process) with the cache on disk.
func BenchmarkCacheLoad(b *testing.B) {
	root, v := benchVault(b)
	ctx := context.Background()
	s, _ := Open(root, v)
	s.Refresh(ctx)
	s.Close() // writes the cache
	for b.Loop() {
		s, err := Open(root, v)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Check(ctx, debate.LayerSpec, "durable key policy", "store the key"); err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// BenchmarkCheckWarm is a check on a Store that has answered before.
func BenchmarkCheckWarm(b *testing.B) {
	s := warmStore(b)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	reads := s.FilesRead()
	for b.Loop() {
		o := benchOutcomes[r.IntN(len(benchOutcomes))]
		if _, err := s.Check(ctx, o.Session.Layer, o.Session.Topic, o.DefenderPosition); err != nil {
			b.Fatal(err)
		}
	}
	if n := s.FilesRead() - reads; n != 0 {
		b.Fatalf("warm checks read %d files", n)
	}
}

// BenchmarkSearch ranks the records for a topic.
func BenchmarkSearch(b *testing.B) {
	s := warmStore(b)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		o := benchOutcomes[r.IntN(len(benchOutcomes))]
		if _, err := s.Search(ctx, o.Session.Topic, Filter{}, 10); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseRecord is the decoder alone.
func BenchmarkParseRecord(b *testing.B) {
	root, v := benchVault(b)
	_ = root
	d, err := v.OpenDir(Folder, false)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	names, _ := d.Names()
	data, _, err := d.ReadFile(names[0])
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, _, err := parseRecord(names[0], data); err != nil {
			b.Fatal(err)
		}
	}
}

// warmStore opens the benchmark vault's store and brings its index up to
// date, so that what the benchmark times is the warm path; it is closed
// when the benchmark ends.
func warmStore(b *testing.B) *Store {
	b.Helper()
	root, v := benchVault(b)
	s, err := Open(root, v)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	s.Refresh(context.Background())
	return s
}
