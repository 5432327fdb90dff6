import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension URL {
    /// The size of the local regular file this URL names (a symbolic link is followed), for a body read from it.
    ///
    /// A directory, a device or a pipe has no size to announce, and reading one would send less or more than it, or
    /// wait forever (`/dev/zero`, a FIFO). The file is opened as every file is (``SafeFile``), without waiting, and
    /// checked on its descriptor.
    ///
    /// - Throws: `URLError(.unsupportedURL)` for a URL that isn't a `file:` URL, `.fileDoesNotExist` for a file that
    ///   can't be read, `.fileIsDirectory` for a directory, and `.cannotOpenFile` for anything else that isn't a
    ///   regular file.
    public func regularFileSize() throws(URLError) -> Int64 {
        let (descriptor, status) = try openRegularFile()
        close(descriptor)
        return Int64(status.st_size)
    }

    /// The bytes of the local regular file this URL names, read whole: a symbolic link is followed when
    /// `followingLinks`, as in a path the caller gave, and is refused otherwise, as in a name found in a directory.
    ///
    /// It refuses what isn't a regular file (a FIFO, a device, a directory) without waiting on it; ResourceKitTesting
    /// reads its fixtures and recordings with it.
    ///
    /// - Throws: `URLError`: `.fileDoesNotExist`, `.fileIsDirectory`, `.noPermissionsToReadFile` or `.cannotOpenFile`
    ///   (for a link that isn't followed, or what isn't a regular file).
    public func regularFileContents(followingLinks: Bool = true) throws(URLError) -> Data {
        try Self.checked(self) { () throws(SafeFile.Refusal) in
            try SafeFile.contents(of: path, followingLinks: followingLinks, owner: .anyone)
        }
    }

    /// The open descriptor and status of the local regular file this URL names; the caller closes it.
    private func openRegularFile() throws(URLError) -> (descriptor: Int32, status: stat) {
        try Self.checked(self) { () throws(SafeFile.Refusal) in
            try SafeFile.open(path, O_RDONLY, followingLinks: true, owner: .anyone)
        }
    }

    /// What `work` returns for the file `url`, or the `URLError` its refusal stands for.
    private static func checked<Result>(_ url: URL, _ work: () throws(SafeFile.Refusal) -> Result) throws(URLError)
        -> Result
    {
        guard url.isFileURL else {
            throw URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: "A file to send needs a file: URL."])
        }
        do throws(SafeFile.Refusal) {
            return try work()
        } catch .directory {
            throw URLError(
                .fileIsDirectory, userInfo: [NSLocalizedDescriptionKey: "A file to send can't be a directory."])
        } catch .notRegular {
            throw URLError(
                .cannotOpenFile, userInfo: [NSLocalizedDescriptionKey: "A file to send must be a regular file."])
        } catch {
            throw URLError(
                .fileDoesNotExist,
                userInfo: [NSLocalizedDescriptionKey: "The file to send can't be read.", NSUnderlyingErrorKey: error])
        }
    }
}
