import ArgumentParser

/// Hints for options a command does not know (`--ds-crt` for `--ds-cert`). ArgumentParser reports a missing required
/// option before an unknown one, which hides a typo; the hint names the typo and the option meant. Only options the
/// command does not know are ever hinted at, and only against the options it does know: an option typed correctly
/// is never called unknown, whatever the error text names.
enum OptionHints {
    /// The subcommand `arguments` run, by walking the command tree from `root` along its leading words (and into a
    /// command's default subcommand, as `load` runs `load run`).
    static func command(for arguments: [String], root: any ParsableCommand.Type) -> any ParsableCommand.Type {
        var command = root
        for argument in arguments {
            guard !argument.hasPrefix("-"),
                let next = command.configuration.subcommands.first(where: { $0._commandName == argument })
            else { break }
            command = next
        }
        return command.configuration.defaultSubcommand ?? command
    }

    /// The long options `command` takes, read from its own help text, with `--help` and `--version`.
    static func knownOptions(of command: any ParsableCommand.Type, root: any ParsableCommand.Type) -> Set<String> {
        let help = root.helpMessage(for: command, columns: 10_000)
        var known: Set<String> = ["--help", "--version"]
        for token in help.split(whereSeparator: { " \n,[]()|'\"`;:.".contains($0) }) where token.hasPrefix("--") {
            known.insert(String(token.prefix { $0 != "=" && $0 != "<" }))
        }
        return known
    }

    /// Each long option in `arguments` that the command does not know, with the known option it most likely meant
    /// (an edit distance of at most 2), or `nil` when none is close.
    static func unknownOptions(in arguments: [String], root: any ParsableCommand.Type) -> [(
        given: String, meant: String?
    )] {
        let command = command(for: arguments, root: root)
        let known = knownOptions(of: command, root: root)
        // After `--`, everything is an argument.
        let options = arguments.prefix { $0 != "--" }.filter { $0.hasPrefix("--") && $0.count > 2 }
        return options.map { String($0.prefix { $0 != "=" }) }.filter { !known.contains($0) }.map { given in
            let nearest = known.map { ($0, editDistance(given, $0)) }.filter { $0.1 <= 2 }
                .min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
            return (given, nearest?.0)
        }
    }

    /// The first word of `arguments` when it names no command of `root`, with the command it most likely meant (an
    /// edit distance of at most 2): `threeds pya` meant `pay`. `nil` when the first word is an option or a command.
    static func unknownCommand(in arguments: [String], root: any ParsableCommand.Type) -> (
        given: String, meant: String?
    )? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let names = root.configuration.subcommands.map { $0._commandName } + ["help"]
        guard !names.contains(first) else { return nil }
        let nearest = names.map { ($0, editDistance(first, $0)) }.filter { $0.1 <= 2 }
            .min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
        return (first, nearest?.0)
    }

    /// The Levenshtein distance between two short strings.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
