"""The fault kinds: one module each in this folder, each declaring ``KIND``
(okgin.faults.registry.Kind: its name, goal, sizes and run function).
Adding a kind is adding a file: okgin.faults.registry finds every module
here."""
