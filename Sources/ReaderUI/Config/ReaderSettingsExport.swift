// The reader's settings, themes and key map live in ReaderSettings, a target without the
// interface, so that the hostile-input harness can load them without the whole reader
// (#27); every `import ReaderUI` keeps seeing them.
@_exported import ReaderSettings
