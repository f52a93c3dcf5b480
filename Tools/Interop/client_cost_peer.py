"""The client's cost per payment, measured in an independent implementation (Python `cryptography` over OpenSSL).

Run by the benchmark (`threeds-benchmarks --peer PYTHON`), which writes the fixtures and measures the SDK's
side in the same run. Each operation is timed the way the benchmark times the SDK: rounds of a fixed number of
calls, the median of the per-call times. Prints one JSON object, microseconds per call:

- `keygen_jwk`: a fresh P-256 key and its public JWK as JSON text (what an SDK puts in the AReq);
- `keygen`: the key alone;
- `signed_content_ps256`, `signed_content_es256`: an ACS signed content checked as an SDK must: the compact form
  split and its header read, every x5c certificate parsed and within its validity, the chain validated to the root
  (RFC 5280, by `cryptography.x509.verification`), the JWS signature verified with the leaf key, the payload read;
- `payment`: the client side of one payment without the network: the key and JWK, the device data encrypted to
  the directory server (RSA-OAEP-256, A128CBC-HS256), the signed content (PS256) checked, ECDH with the ACS key
  and the EMVCo Concat KDF, then two exchanges (the CReq built and encrypted, the CRes decrypted and its JSON
  read and checked).

The CRes of the fixtures are encrypted under a fixed channel key (a fresh key per payment would need an ACS in the
loop); the derivation still runs every payment, as in the SDK's row.

Usage: client_cost_peer.py FIXTURES_DIR ROUNDS SCALE_DIVISOR
"""

import base64
import hashlib
import hmac
import json
import os
import sys
import time
from datetime import datetime, timezone

from cryptography import x509
from cryptography.hazmat.primitives import hashes, padding as symmetric_padding
from cryptography.hazmat.primitives.asymmetric import ec, padding
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.serialization import load_pem_public_key
from cryptography.x509.verification import ExtensionPolicy, PolicyBuilder, Store

from peer_common import b64u, unb64u


def keygen():
    return ec.generate_private_key(ec.SECP256R1())


def public_jwk(key) -> str:
    numbers = key.public_key().public_numbers()
    return json.dumps(
        {"kty": "EC", "crv": "P-256", "x": b64u(numbers.x.to_bytes(32, "big")),
         "y": b64u(numbers.y.to_bytes(32, "big"))},
        separators=(",", ":"))


def verify_signed_content(compact: str, store: Store) -> dict:
    encoded_header, encoded_payload, encoded_signature = compact.split(".")
    header = json.loads(unb64u(encoded_header))
    algorithm = header["alg"]
    if algorithm not in ("PS256", "ES256") or "crit" in header:
        raise ValueError("algorithm")
    certificates = [x509.load_der_x509_certificate(base64.b64decode(entry)) for entry in header["x5c"]]
    now = datetime.now(timezone.utc)
    for certificate in certificates:
        if not certificate.not_valid_before_utc <= now <= certificate.not_valid_after_utc:
            raise ValueError("expired")
    verifier = (
        PolicyBuilder().store(store).time(now)
        .extension_policies(ca_policy=ExtensionPolicy.webpki_defaults_ca(), ee_policy=ExtensionPolicy.permit_all())
        .build_client_verifier())
    verifier.verify(certificates[0], certificates[1:])
    key = certificates[0].public_key()
    signature = unb64u(encoded_signature)
    signing_input = (encoded_header + "." + encoded_payload).encode()
    if algorithm == "PS256":
        key.verify(signature, signing_input, padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=32),
                   hashes.SHA256())
    else:
        der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
        key.verify(der, signing_input, ec.ECDSA(hashes.SHA256()))
    return json.loads(unb64u(encoded_payload))


def cbc_hs256_tag(key: bytes, encoded_header: str, iv: bytes, ciphertext: bytes) -> bytes:
    """A128CBC-HS256's tag (RFC 7518 §5.2.2): HMAC-SHA-256 with the key's first half, truncated to 16 bytes."""
    aad = encoded_header.encode()
    return hmac.new(key[:16], aad + iv + ciphertext + (len(aad) * 8).to_bytes(8, "big"), hashlib.sha256).digest()[:16]


def cbc_hs256_seal(key: bytes, plaintext: bytes, iv: bytes, encoded_header: str) -> tuple:
    """A128CBC-HS256: the ciphertext (AES-CBC with the key's second half) and its tag."""
    padder = symmetric_padding.PKCS7(128).padder()
    padded = padder.update(plaintext) + padder.finalize()
    encryptor = Cipher(algorithms.AES(key[16:]), modes.CBC(iv)).encryptor()
    ciphertext = encryptor.update(padded) + encryptor.finalize()
    return ciphertext, cbc_hs256_tag(key, encoded_header, iv, ciphertext)


def jwe_rsa_oaep(plaintext: bytes, public_key) -> str:
    encoded_header = b64u(json.dumps({"alg": "RSA-OAEP-256", "enc": "A128CBC-HS256"}, separators=(",", ":")).encode())
    content_key = os.urandom(32)
    encrypted_key = public_key.encrypt(
        content_key, padding.OAEP(mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None))
    iv = os.urandom(16)
    ciphertext, tag = cbc_hs256_seal(content_key, plaintext, iv, encoded_header)
    return ".".join([encoded_header, b64u(encrypted_key), b64u(iv), b64u(ciphertext), b64u(tag)])


def jwe_direct(plaintext: bytes, key: bytes, iv: bytes, kid: str) -> str:
    encoded_header = b64u(json.dumps({"alg": "dir", "enc": "A128CBC-HS256", "kid": kid}, separators=(",", ":")).encode())
    ciphertext, tag = cbc_hs256_seal(key, plaintext, iv, encoded_header)
    return ".".join([encoded_header, "", b64u(iv), b64u(ciphertext), b64u(tag)])


def jwe_direct_open(compact: str, key: bytes, kid: str) -> bytes:
    encoded_header, encrypted_key, encoded_iv, encoded_ciphertext, encoded_tag = compact.split(".")
    header = json.loads(unb64u(encoded_header))
    if header.get("alg") != "dir" or header.get("enc") != "A128CBC-HS256" or header.get("kid") != kid or encrypted_key:
        raise ValueError("header")
    iv, ciphertext, tag = unb64u(encoded_iv), unb64u(encoded_ciphertext), unb64u(encoded_tag)
    if not hmac.compare_digest(cbc_hs256_tag(key, encoded_header, iv, ciphertext), tag):
        raise ValueError("tag")
    decryptor = Cipher(algorithms.AES(key[16:]), modes.CBC(iv)).decryptor()
    padded = decryptor.update(ciphertext) + decryptor.finalize()
    unpadder = symmetric_padding.PKCS7(128).unpadder()
    return unpadder.update(padded) + unpadder.finalize()


def emvco_kdf(shared_secret: bytes, party_v_info: str) -> bytes:
    party_v = party_v_info.encode()
    other = (b"\x00\x00\x00\x00" + b"\x00\x00\x00\x00" + len(party_v).to_bytes(4, "big") + party_v
             + (256).to_bytes(4, "big"))
    return hashlib.sha256(b"\x00\x00\x00\x01" + shared_secret + other).digest()


def counter_iv(counter: int) -> bytes:
    return bytes(15) + bytes([counter & 0xFF])


def main() -> int:
    directory, rounds, divisor = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

    def path(name: str) -> str:
        return os.path.join(directory, name)

    with open(path("root.pem"), "rb") as handle:
        store = Store([x509.load_pem_x509_certificate(handle.read())])
    with open(path("ps256.jws")) as handle:
        ps256 = handle.read().strip()
    with open(path("es256.jws")) as handle:
        es256 = handle.read().strip()
    with open(path("payment.json")) as handle:
        payment = json.load(handle)
    with open(path("ds-rsa.pem"), "rb") as handle:
        ds_key = load_pem_public_key(handle.read())
    device_data = payment["deviceData"].encode()
    channel_key = bytes.fromhex(payment["channelKey"])
    ids = payment["identifiers"]
    requests = payment["creq"]
    responses = payment["cres"]

    def one_payment():
        key = keygen()
        jwk = public_jwk(key)
        device_jwe = jwe_rsa_oaep(device_data, ds_key)
        content = verify_signed_content(ps256, store)
        acs = content["acsEphemPubKey"]
        acs_key = ec.EllipticCurvePublicNumbers(
            int.from_bytes(unb64u(acs["x"]), "big"), int.from_bytes(unb64u(acs["y"]), "big"),
            ec.SECP256R1()).public_key()
        derived = emvco_kdf(key.exchange(ec.ECDH(), acs_key), payment["sdkReferenceNumber"])
        for counter, (request, response) in enumerate(zip(requests, responses)):
            creq = jwe_direct(json.dumps(request, separators=(",", ":")).encode(), channel_key, counter_iv(counter),
                              ids["acsTransID"])
            cres = json.loads(jwe_direct_open(response, channel_key, ids["acsTransID"]))
            if (cres.get("messageType") != "CRes" or cres.get("acsCounterAtoS") != f"{counter:03d}"
                    or cres.get("acsTransID") != ids["acsTransID"] or cres.get("sdkTransID") != ids["sdkTransID"]
                    or cres.get("threeDSServerTransID") != ids["threeDSServerTransID"]):
                raise ValueError("CRes")
        return jwk, device_jwe, derived, creq

    operations = {
        "keygen_jwk": (lambda: public_jwk(keygen()), 2000),
        "keygen": (keygen, 2000),
        "signed_content_ps256": (lambda: verify_signed_content(ps256, store), 300),
        "signed_content_es256": (lambda: verify_signed_content(es256, store), 300),
        "payment": (one_payment, 200),
    }
    results = {}
    for name, (operation, iterations) in operations.items():
        count = max(1, iterations // divisor)
        for _ in range(max(1, count // 4)):
            operation()
        samples = []
        for _ in range(rounds):
            start = time.perf_counter()
            for _ in range(count):
                operation()
            samples.append((time.perf_counter() - start) / count)
        samples.sort()
        results[name] = samples[len(samples) // 2] * 1e6
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
