#pragma once

#include <QString>

#include <optional>
#include <utility>
#include <variant>

namespace blocktune {

/// What went wrong, in words a user can act on. `code` is an errno value
/// where the failure came from the kernel, else one of ErrorCode.
struct Error
{
    int code = 0;
    QString message;
};

enum ErrorCode : int {
    InvalidArgument = 1000, ///< the request itself is malformed or out of range
    NotFound,               ///< a device, attribute or file does not exist
    NotSupported,           ///< the kernel or device lacks the feature
    Refused,                ///< a policy (allowlist, ownership) says no
    Interrupted,            ///< cancelled by the user or a signal
};

/// strerror(err) as a QString: "No such file or directory".
QString errnoText(int err);
/// The same with the number, for reports read later: "Input/output error (errno 5)".
QString errnoDetail(int err);

inline Error makeError(int code, QString message)
{
    return Error{code, std::move(message)};
}

/// A value or an Error. GCC 12 has no std::expected; this covers what we use.
template<typename T>
class [[nodiscard]] Result
{
public:
    Result(T value) : m_data(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : m_data(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return m_data.index() == 0; }
    explicit operator bool() const { return ok(); }

    const T &value() const & { return std::get<0>(m_data); }
    T &value() & { return std::get<0>(m_data); }
    T &&value() && { return std::get<0>(std::move(m_data)); }
    const T &operator*() const & { return value(); }
    T &operator*() & { return value(); }
    const T *operator->() const { return &value(); }
    T *operator->() { return &value(); }

    T valueOr(T fallback) const { return ok() ? value() : std::move(fallback); }
    std::optional<T> toOptional() const { return ok() ? std::optional<T>(value()) : std::nullopt; }

    const Error &error() const { return std::get<1>(m_data); }

private:
    std::variant<T, Error> m_data;
};

/// Result of an operation that yields nothing but success or an Error.
class [[nodiscard]] Status
{
public:
    Status() = default;
    Status(Error error) : m_error(std::move(error)) {}

    static Status success() { return {}; }
    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const Error &error() const { return *m_error; }

private:
    std::optional<Error> m_error;
};

} // namespace blocktune
