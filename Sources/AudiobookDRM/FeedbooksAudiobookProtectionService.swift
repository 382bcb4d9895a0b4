import Shared

/// The content protection service of a Feedbooks audiobook.
///
/// Rights: an audiobook that passed its checks is unrestricted — there is nothing to copy or
/// print in audio, and the Feedbooks vocabulary grants no quota; the rights period and the
/// license status decide whether it can be listened to at all. A restricted one has no rights.
public final class FeedbooksAudiobookProtectionService: ContentProtectionService {
    /// What each check found.
    public let report: AudiobookDRMReport
    /// Whether the manifest carries a signature (else only a rights period or access restriction).
    public let isSigned: Bool

    public init(report: AudiobookDRMReport, isSigned: Bool) {
        self.report = report
        self.isSigned = isSigned
    }

    public var isRestricted: Bool { report.failure != nil }
    public var error: (any Error)? { report.failure }
    public var restriction: ProtectionRestriction? { report.failure?.protectionRestriction }
    public var name: LocalizedString? {
        .nonlocalized(isSigned ? "Signed audiobook (Feedbooks)" : "Audiobook loan (Feedbooks)")
    }
    public var scheme: String { FeedbooksVocabulary.scheme }
}

extension Publication {
    /// The checks of a Feedbooks audiobook, when it is one.
    public var feedbooksDRMReport: AudiobookDRMReport? {
        findService(FeedbooksAudiobookProtectionService.self)?.report
    }
}
