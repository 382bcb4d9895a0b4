/// The certificates Lectern trusts for basic-profile (test) licenses.
///
/// The root is embedded as text rather than shipped as a SwiftPM resource: resources need
/// Foundation's `Bundle`, which the libraries avoid.
public enum LCPTestCertificates {
    /// "EDRLab Readium LCP test CA" (2026-03-23 → 2038-03-20, SHA-256 fingerprint
    /// A7:DF:24:33:…:2D:DD), the root of the current basic-profile test provider certificate;
    /// from edrlab/lcp-server `pkg/check/data/cacert-edrlab-test.pem`, the same bytes as
    /// `Tests/Fixtures/Samples/lcp/edrlab-lcp-test-ca.pem`.
    public static let edrlabTestRootPEM = """
        -----BEGIN CERTIFICATE-----
        MIIFwjCCA6qgAwIBAgIUI02z2H2RcYOt14qUkMioLW/meGYwDQYJKoZIhvcNAQEL
        BQAwZzELMAkGA1UEBhMCRlIxDjAMBgNVBAcMBVBhcmlzMQ8wDQYDVQQKDAZFRFJM
        YWIxEjAQBgNVBAsMCUxDUCBUZXN0czEjMCEGA1UEAwwaRURSTGFiIFJlYWRpdW0g
        TENQIHRlc3QgQ0EwHhcNMjYwMzIzMTQ1NTAxWhcNMzgwMzIwMTQ1NTAxWjBnMQsw
        CQYDVQQGEwJGUjEOMAwGA1UEBwwFUGFyaXMxDzANBgNVBAoMBkVEUkxhYjESMBAG
        A1UECwwJTENQIFRlc3RzMSMwIQYDVQQDDBpFRFJMYWIgUmVhZGl1bSBMQ1AgdGVz
        dCBDQTCCAiIwDQYJKoZIhvcNAQEBBQADggIPADCCAgoCggIBAIJfwYCzQwGe8Oko
        3cVhZ55+kzbqO7FvMv0v2ZM/yFkyNQrKdO4hICs4DUi1YF1zSb9mxTKtIm9Ugfl/
        VanBvKGnbJQ2qlciAUrPN9xlM4Z2rkGhnEqoLuZsIIfIm7tPDkcexT4qeL3r5rl8
        d5G9bI8dGEt4musoOn0H4Qa9cjKvCddL6wZ5/qIkhEBvgNfSu4hztGBHeBGcVaBC
        wGbo9fU1K3/YBJOx9omc9C1kS336AYo+mgF2OIaiEi6Rk6XTcrQ0x9uzQSzLjJ4z
        Lq/9OfInzooWvvm/7fcDkktEY6LunEy85UhY7eFlKVazUnZ0AV7mrHiLnpwD01Xz
        svII/q7X+c7xDg4wJL24mC2nEMvE8LaaiqoDz0lQSMLoq9epBzSyR/i5go7xIjcS
        TouuPzLKXqgpTD0NNoG7/ApRaUm7QCaZoMqc5jQCh+NuFW1caqmbWUBbIezJIEpn
        uUtjV8jVxlw6MTZD8D7hIjB3LBCMPP2qJaYAcpu5PGxlwH6Gw8kkopYQXdHRTV/j
        1/tsnD2LrloJVOKkCa0f9xNgJuxjGU/DbExd8Amq5Kq21KaoVoY9Oca9hjGTTUr9
        J/34Vt8uPy9kL68VozcfRp/ZF6/ETS6frrIumSych+MiU7g1fiL34NTh7m5sSxn5
        X/8NHizCE1bqLKFf8NcNtFVcPnmdAgMBAAGjZjBkMB0GA1UdDgQWBBT6EPXzvkI7
        xQ5AT88XBHt5fPjlSzAfBgNVHSMEGDAWgBT6EPXzvkI7xQ5AT88XBHt5fPjlSzAS
        BgNVHRMBAf8ECDAGAQH/AgEAMA4GA1UdDwEB/wQEAwIBhjANBgkqhkiG9w0BAQsF
        AAOCAgEAT6kQM0xn9rwcBVdVuQw5tLGkUcvOEcfwJOqXUZWutECuFi64H45K5eE6
        ZcSHmwcJ3kMN80DuehdBF2quUTKeBDzyJQ42QnEQlUZ9km3Wf5kPbJWSlxOUzFel
        BdViLSjvQHayBjrMBJo0SMGYHESVPpi6ZOlMyCKgyiBACrzxHrHQWc5rL54BnoXU
        6yQAzZ4hAhzrNYjTEYzpYJL6aQ27qDxZ02NuJFODT3YVPWwk39GLr3/j7LIQ108k
        WSIBsovDeWJY4/Vd1pUZTtARA8ZF0lJNWSiAHM2ClQb+jyKXX26+dejPDAlhLra/
        SH9l23ezV4emARsnkukf6Sr1I7j8cL1g+MlZR/MloHW1PDRYxyu+ggwyNaW41Q4v
        D7DtYM7Jw49hD+8qV8pCiObPy9OsXWmpmQO3bguFYvfWw+b8VAAbZjMKkwyiCKzc
        nojmgMCBbsJjWW2nAmWK5ByaDrvhT2vbHJHCIhifuYIseMqG70N0tlgMQ5/ey/lh
        FSAhigautQ3IVfj4zgCbszxno1DIWeuKTQwR+kuZ3e5oKjm7Pp1k2fChJT1jmWjD
        bd3RxmnQmzPdvrqoz3IwIggohEtCt5QpOOsbPLJgpBWSzjv3L/Zu15CVo+As0bTB
        zQ3JvJMTg9ARoLd5WrDclmc9GAdjepG7vWYG/A20X+QKE3O8zYY=
        -----END CERTIFICATE-----
        """

    /// SHA-256 of the DER of the *previous* EDRLab test provider certificate (serial 1,
    /// 2016-03-25 → 2026-03-23, no authority key identifier). It signed years of test licenses
    /// (the Readium toolkits' fixtures among them) but its root was never published, so no
    /// chain can be built for it. Lectern's basic-profile test mode accepts this one pinned
    /// certificate when the license signature verifies and the certificate was valid at the
    /// license's date; the `strict` trust setting refuses it. The basic profile is test-only by
    /// definition (LCP §6.1), so this grants nothing a forger could not already do.
    public static let legacyTestProviderSHA256 = "ad6b736a1f7dc8afe2f6c1a0f3b11f1b18124f3ec866bd9c5a4b003324e3b511"
}
