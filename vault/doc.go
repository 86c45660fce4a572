// Package vault reads and writes an Obsidian-style vault: Markdown pages
// with YAML frontmatter, linked by [[wikilinks]].
//
// Every file is opened under an *os.Root of the vault directory, so neither
// ".." nor a symbolic link leads out of it: a page that is a symlink to a
// file outside the vault is not read. Pages are written atomically through
// internal/durable (directories 0700, files 0600) and bounded in size on
// write and on read (MaxPageBytes, MaxFrontmatterBytes).
//
// A Vault is safe for concurrent use.
package vault
