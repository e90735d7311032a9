"""SecantusDB's own server (secantus.cli.main), with one fix to its TTL monitor.

The monitor sweeps every collection with a TTL index, then waits 60 s on the same WiredTiger session without releasing
the sweep's read snapshot, and WiredTiger keeps every change made after the oldest snapshot held. So about 9,000 inserts after a sweep, a server taking writes slowed to a crawl until the
next sweep: history-shaped inserts from 8 writers fell from about 1,700 documents/s to 132/s, the server 80% idle and
its inserts sleeping in WiredTiger's __wt_page_in_func (test/secantusdb-ttl-monitor.test.ts; docs/architecture.md,
Storage). The server already releases the snapshot after every client request (Storage.release_thread_snapshot);
this does the same after every sweep.
Written for the pinned 0.7.0b3 (local/services/secantusdb-install.ts): the names it patches are that version's.
"""

import sys

from secantus.cli import main
from secantus.storage import Storage

sweep_all_collections = Storage.prune_ttl_all_collections


def sweep_then_release_snapshot(self, *args, **kwargs):
    try:
        return sweep_all_collections(self, *args, **kwargs)
    finally:
        self.release_thread_snapshot()


Storage.prune_ttl_all_collections = sweep_then_release_snapshot

if __name__ == "__main__":
    sys.exit(main())
