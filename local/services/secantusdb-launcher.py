"""SecantusDB's own server (secantus.cli.main), with one fix to its TTL monitor.

After each sweep the monitor waits 60 s on the same WiredTiger session, and a sweep can leave its read snapshot held
there; WiredTiger then keeps every change made after it. About 9,000 inserts later, a server taking writes slowed to a
crawl until the next sweep: history-shaped inserts from 8 writers fell from about 1,700 documents/s to 132/s, the
server 80% idle and its inserts sleeping in WiredTiger's __wt_page_in_func (test/secantusdb-ttl-monitor.test.ts;
docs/architecture.md, Storage). The server already releases the snapshot after every client request
(Storage.release_thread_snapshot); this does the same after every sweep.

Written for the pinned 0.7.0b3 (local/services/secantusdb-install.ts). Both names are looked up here, at start, so that
a version without them stops the server at once rather than leaving every sweep failing in its log.
"""

import sys

from secantus.cli import main
from secantus.storage import Storage

original_prune_ttl_all_collections = Storage.prune_ttl_all_collections
release_thread_snapshot = Storage.release_thread_snapshot


def prune_ttl_then_release_snapshot(self, *args, **kwargs):
    try:
        return original_prune_ttl_all_collections(self, *args, **kwargs)
    finally:
        release_thread_snapshot(self)


Storage.prune_ttl_all_collections = prune_ttl_then_release_snapshot

if __name__ == "__main__":
    sys.exit(main())
