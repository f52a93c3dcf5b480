#!/usr/bin/env bash
# The PostgreSQL server the Split-SDK's shared-store tests use (Tools/Tests/ThreeDS2SplitSDKTests/
# SplitSharedStoreTests.swift): Debian's PostgreSQL on 127.0.0.1:5432, a role `threeds_split` (password
# `threeds-split-test`, a test credential, never a deployment's) and its database `threeds_split`. Run as root (as
# `.ci/run` and scripts/test.sh do on a new machine), it installs the package when missing, starts the cluster
# (`pg_ctlcluster`: root may not run the server itself) and creates the role and the database. Not as root, it only
# checks that the server answers as the role, and otherwise names what to do: the tests never skip.
set -euo pipefail

answers() {
    PGPASSWORD=threeds-split-test psql -h 127.0.0.1 -p "${THREEDS_TEST_POSTGRES_PORT:-5432}" -U threeds_split \
        -d threeds_split -tAc 'SELECT 1' >/dev/null 2>&1
}

if answers; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
    echo "PostgreSQL does not answer as threeds_split on 127.0.0.1; run scripts/postgres.sh as root once" >&2
    exit 1
fi
if ! command -v pg_lsclusters >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql
fi
# Every cluster Debian made (one, on a new machine), started if it is down.
pg_lsclusters --no-header | while read -r version cluster port status _; do
    if [ "$status" != online ]; then pg_ctlcluster "$version" "$cluster" start; fi
done
su postgres -c "psql -v ON_ERROR_STOP=1 -qc \"DO \\\$\\\$ BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'threeds_split') THEN
        CREATE ROLE threeds_split LOGIN PASSWORD 'threeds-split-test';
    END IF; END \\\$\\\$;\""
if ! su postgres -c "psql -tAc \"SELECT 1 FROM pg_database WHERE datname = 'threeds_split'\"" | grep -q 1; then
    su postgres -c "createdb -O threeds_split threeds_split"
fi
for _ in $(seq 1 50); do
    if answers; then exit 0; fi
    sleep 0.2
done
echo "PostgreSQL was started but does not answer as threeds_split on 127.0.0.1" >&2
exit 1
