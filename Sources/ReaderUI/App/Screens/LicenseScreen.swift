import Terminal

/// The license details of an LCP publication (`L` on the bookshelf): `r` renews, `R` returns
/// after a confirmation, when the status document offers them; closing reads the shelf again.
struct LicenseScreen: Screen {
    var state: LicenseState

    mutating func handle(_ key: Key, size: (rows: Int, columns: Int)) -> [ScreenEffect] {
        if state.confirmingReturn {
            state.confirmingReturn = false
            if key == .character("y") || key == .character("Y") { return startLoanAction(renew: false) }
            state.note = "Not returned."
            return []
        }
        switch key {
        case .escape, .character("q"), .character("L"):
            return [.pop, .reloadShelf(select: state.entry.id)]
        case .character("r") where !state.busy:
            if state.details?.canRenew == true { return startLoanAction(renew: true) }
            if let unavailable = state.details?.statusUnavailable {
                state.note = "Cannot renew now. " + unavailable
            } else {
                state.note = "This loan cannot be renewed (its status document offers no renewal)."
            }
        case .character("R") where !state.busy:
            if state.details?.canReturn == true {
                state.confirmingReturn = true
            } else if let unavailable = state.details?.statusUnavailable {
                state.note = "Cannot return now. " + unavailable
            } else {
                state.note = "This publication cannot be returned (its status document offers no return)."
            }
        case .down, .character("j"): state.top += 1
        case .up, .character("k"): state.top = max(0, state.top - 1)
        default: break
        }
        return []
    }

    func draw(into painter: Painter) {
        PopupViews.drawLicense(state, painter: painter)
    }

    /// Shows the renewal or return under way; the application runs it.
    private mutating func startLoanAction(renew: Bool) -> [ScreenEffect] {
        state.busy = true
        state.note = renew ? "Renewing…" : "Returning…"
        return [.loanAction(state.entry, renew: renew)]
    }
}
