import Foundation

// The composition root: argv → the command tree (Essh) → the modules.
setlocale(LC_ALL, "")
Essh.main()
