"""rebalance-lens: why does my consumer group keep rebalancing, who caused it, how long did it stop."""

from setuptools import find_packages, setup

setup(
    name="rebalance-lens",
    version="0.1.0",
    description=(
        "PySpark batch analytics over Kafka group-coordinator logs: replays every consumer group "
        "through a pure model of Kafka's coordinator and writes rebalance tables to Delta."
    ),
    python_requires=">=3.11,<3.14",
    packages=find_packages(include=["coordinator_core", "coordinator_core.*", "jobs", "jobs.*"]),
    package_data={"jobs": ["samples/*.md", "samples/logs/*/*", "samples/logs/*/*/*", "samples/logs/*/*/*/*"]},
    include_package_data=True,
    install_requires=[
        "pyspark>=4.0.1,<=4.2.0",
        "delta-spark>=4.0,<5",
        "deltalake>=1.0,<2",
        "pandas>=2.2,<3",
        "pyarrow>=15,<27",
        "pyyaml>=6,<7",
        "matplotlib>=3.8,<4",
    ],
    extras_require={
        "test": [
            "pytest>=8,<10",
            "chispa>=0.10,<1",
            "hypothesis>=6.100,<7",
            "ruff>=0.6",
        ],
        "connect": ["grpcio>=1.62", "protobuf>=5", "zstandard>=0.22", "grpcio-status>=1.62", "googleapis-common-protos>=1.60"],
    },
    entry_points={
        "console_scripts": [
            "rebalance-lens=jobs.cli:main",
        ]
    },
)
