#pragma once
// What core/readahead's probe decides before it loads anything, apart so a
// test can ask it about kernels this machine is not (readaheadprobe.cpp).

#include "readahead.h"

#include <QByteArray>
#include <QStringList>

namespace blocktune::readahead_detail {

/// What a kernel's BTF names: the four readahead tracepoints and functions,
/// and the page cache's filemap tracepoints.
struct KernelHooks
{
    bool tracepoints = true; ///< all four readahead tracepoints
    bool functions = true;   ///< page_cache_sync_ra and page_cache_async_ra at least
    QStringList missingTracepoints;     ///< "readahead:page_cache_ra_order", ...
    QStringList missingPageTracepoints; ///< add, delete, get_pages
    bool fault = false;
    bool mapPages = false;
};

/// Which hooks to load: `hooks`, else `forced` (BLOCKTUNE_READAHEAD_HOOKS:
/// "tracepoints" or "fentry"), else the tracepoints where the kernel has
/// them and fentry where it has only the functions. True for fentry; an
/// error naming what the kernel lacks when it has neither.
Result<bool> chooseFentry(ReadaheadProbe::Hooks hooks, const KernelHooks &kernel, const QByteArray &forced);

} // namespace blocktune::readahead_detail
