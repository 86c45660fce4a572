package main

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/internal/textview"
)

// newTranscriptsKeygenCmd is "parley transcripts keygen FILE": a new
// ed25519 key for signing seals, written to FILE (0600, never replaced),
// and the config.json lines that use it.
func newTranscriptsKeygenCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "keygen FILE",
		Short: "Make an ed25519 key that signs every debate's seal, and print the config.json lines that use it",
		Long: "Writes a new ed25519 private key (base64) to FILE, readable by you only, and prints\n" +
			"the \"seal\" section for config.json: signingKey (FILE) and publicKey. With it, every\n" +
			"verdict.json parley writes is signed, and every seal read must carry a valid\n" +
			"signature: a debate rewritten by someone with write access but not the key shows\n" +
			"as tampered. Keep FILE out of reach of those you do not trust; give readers only\n" +
			"the publicKey.",
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			key, err := app.NewSealKey(args[0])
			if errors.Is(err, fs.ErrExist) {
				return cmdutil.Usagef("%s exists; parley never replaces a key (give another file)", args[0])
			}
			if err != nil {
				return err
			}
			if a.JSON {
				return a.Emit(map[string]any{"seal": key})
			}
			return textview.SealKey(a.Stdout, key, filepath.Join(a.RootDir(), config.FileName))
		},
	}
}
